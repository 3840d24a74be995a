import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Trip-sharing links (the safety module): a ride's rider hands a link to family;
// only a hash of the link's token is kept, so the table cannot give a working link away.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('trip_shares')
    .addColumn('id', 'integer', id)
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    // SHA-256 of the token, hex: what a lookup compares.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The latest a link works, whatever the ride does; it stops sooner 30 minutes after the ride ends.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('trip_shares_ride').on('trip_shares').columns(['ride_id']).execute();
}
