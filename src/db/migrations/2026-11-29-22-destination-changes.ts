import type { Kysely } from 'kysely';

// Frozen once released. A rider's change of destination while ACCEPTED or PICKED (decisions.md
// "Scheduled rides, stops and changes"): the quotes they were given (each confirmed at most once,
// before it expires) and, on the ride, the changes confirmed (a JSON list: where to, the new route's
// distance, minutes and fare, and the fare before).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rides').addColumn('destination_changes', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema
    .createTable('destination_quotes')
    // A random UUID: the rider's app holds it between the quote and the confirmation.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ride_id', 'integer', (c) => c.notNull().references('rides.id'))
    .addColumn('rider_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('drop_lat', 'double precision', (c) => c.notNull())
    .addColumn('drop_lon', 'double precision', (c) => c.notNull())
    .addColumn('drop_location', 'text')
    .addColumn('distance_km', 'double precision', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('fare', 'integer', (c) => c.notNull())
    // How many changes the ride had when quoted: a quote made before another change was confirmed is stale.
    .addColumn('changes_before', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .execute();
  await db.schema.createIndex('destination_quotes_ride').on('destination_quotes').columns(['ride_id']).execute();
}
