import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Incidents (the safety module): an SOS from a ride's rider or driver, the
// operators' notes on it, and the driver's positions from the SOS on.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('incidents')
    .addColumn('id', 'integer', id)
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id'))
    // The reporter's part in the ride: rider or driver.
    .addColumn('party', 'text', (c) => c.notNull())
    // The driver whose positions make the track (null for a ride without one).
    .addColumn('driver_id', 'integer')
    // open, acknowledged or resolved.
    .addColumn('status', 'text', (c) => c.notNull())
    // The ride's id while the incident is not resolved, null after: unique, so a ride has one unresolved incident however many SOS arrive at once.
    .addColumn('open_ride_id', 'integer', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('acknowledged_by', 'integer')
    .addColumn('resolved_at', 'bigint')
    .addColumn('resolved_by', 'integer')
    .execute();
  // The operators' list: unresolved first, newest first.
  await db.schema.createIndex('incidents_status').on('incidents').columns(['status', 'id']).execute();

  await db.schema
    .createTable('incident_notes')
    .addColumn('id', 'integer', id)
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_notes_incident').on('incident_notes').columns(['incident_id', 'id']).execute();

  await db.schema
    .createTable('incident_track')
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id'))
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_track_incident').on('incident_track').columns(['incident_id', 'at']).execute();
}
