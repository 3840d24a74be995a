import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Refunds of ride payments through the provider (amounts in paise), each
// with an idempotency key of its own so a retry can never refund twice; and on the ride, what was
// refunded in rupees.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // AUTOINCREMENT on SQLite: an id is never handed out twice, even after the last row is gone.
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'integer', id)
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('payment_sessions.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('requested_by', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('provider_refund_id', 'text', (c) => c.unique())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_ride_id').on('refunds').columns(['ride_id', 'id']).execute();
  await db.schema.createIndex('refunds_session_id').on('refunds').column('session_id').execute();
  await db.schema.createIndex('refunds_due').on('refunds').columns(['status', 'next_attempt_at']).execute();

  await db.schema.alterTable('rides').addColumn('refunded_amount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
