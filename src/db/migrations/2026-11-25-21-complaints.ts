import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Complaints about a ride, filed by its rider or driver and resolved by an
// operator. Rows are never deleted, so a complaint's id is never handed out twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('complaints')
    .addColumn('id', 'integer', id)
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    .addColumn('filed_by', 'integer', (c) => c.notNull().references('users.id'))
    // The complainant's part in the ride: rider or driver.
    .addColumn('party', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('resolved_by', 'integer')
    .addColumn('resolved_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The operators' queue (by status, newest first) and a ride's complaints.
  await db.schema.createIndex('complaints_status').on('complaints').columns(['status', 'id']).execute();
  await db.schema.createIndex('complaints_ride').on('complaints').columns(['ride_id', 'id']).execute();
}
