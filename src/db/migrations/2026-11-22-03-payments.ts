import type { Kysely } from 'kysely';

// Frozen once released. Amounts are paise (integer), times epoch milliseconds.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('ride_id', 'integer', (c) => c.references('rides.id'))
    .addColumn('order_id', 'text', (c) => c.notNull().unique())
    .addColumn('receipt', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_mode', 'text')
    .addColumn('ride_summary', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_sessions_ride_id').on('payment_sessions').column('ride_id').execute();

  // Provider webhook events already handled, so a redelivery changes nothing.
  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
}
