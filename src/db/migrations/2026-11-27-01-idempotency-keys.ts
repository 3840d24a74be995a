import type { Kysely } from 'kysely';

// Frozen once released. Idempotency keys of POST /rides/book and /payments/order, per user: the
// request they were first used with (a hash) and, once it succeeded, its answer, kept 24 hours.
// A row without an answer is a request under way.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'idempotency_key'])
    .execute();
  // The hourly sweep of keys older than a day.
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
}
