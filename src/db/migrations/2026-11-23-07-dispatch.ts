import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Offers of rides to drivers, and what dispatch learned on each ride.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('offers')
    .addColumn('id', 'integer', id)
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ride_type', 'text', (c) => c.notNull())
    .addColumn('fare', 'integer', (c) => c.notNull())
    .addColumn('pickup_location', 'text')
    .addColumn('drop_location', 'text')
    .addColumn('pickup_lat', 'double precision', (c) => c.notNull())
    .addColumn('pickup_lon', 'double precision', (c) => c.notNull())
    .addColumn('drop_lat', 'double precision')
    .addColumn('drop_lon', 'double precision')
    .addColumn('pickup_distance_km', 'double precision', (c) => c.notNull())
    .addColumn('pickup_eta_minutes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('answered_at', 'bigint')
    .addColumn('decline_reason', 'text')
    .execute();
  // A driver holds at most one pending offer, and a ride is offered to one driver at a time.
  await sql`create unique index offers_one_pending_per_driver on offers (driver_id) where status = 'pending'`.execute(db);
  await sql`create unique index offers_one_pending_per_ride on offers (ride_id) where status = 'pending'`.execute(db);
  await db.schema.createIndex('offers_ride').on('offers').columns(['ride_id', 'id']).execute();
  await sql`create index offers_pending_expiry on offers (expires_at) where status = 'pending'`.execute(db);

  for (const [column, type] of [['pickup_zone', 'text'], ['first_offer_at', 'bigint'], ['offer_count', 'integer'], ['pickup_distance_km', 'double precision'], ['no_driver_at', 'bigint']] as const) {
    await db.schema.alterTable('rides').addColumn(column, type).execute();
  }
}
