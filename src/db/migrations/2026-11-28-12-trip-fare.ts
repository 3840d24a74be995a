import type { Kysely } from 'kysely';

// Frozen once released. The trip that happened (decisions.md "Fare policy", upfront then the trip):
// when the driver arrived within 100 m of the pickup (waiting is measured from it), the distance
// along the driver's positions while PICKED (a running total and the last point counted), the tolls
// and parking the driver added (their total, for the per-ride cap, and the list), and at completion
// the upfront quote kept beside the fare and the fare's breakdown; a driver's cancellation penalty.

export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: [string, 'bigint' | 'double precision' | 'integer' | 'text', 'zero' | 'null' | 'empty list'][] = [
    ['arrived_at', 'bigint', 'null'],
    ['trip_distance_km', 'double precision', 'zero'],
    ['trip_last_lat', 'double precision', 'null'],
    ['trip_last_lon', 'double precision', 'null'],
    ['charges_total', 'integer', 'zero'],
    ['trip_charges', 'text', 'empty list'],
    ['upfront_fare', 'integer', 'null'],
    ['fare_breakdown', 'text', 'null'],
    ['driver_penalty', 'integer', 'null'],
  ];
  for (const [column, type, start] of columns) {
    await db.schema
      .alterTable('rides')
      .addColumn(column, type, (c) => (start === 'zero' ? c.notNull().defaultTo(0) : start === 'empty list' ? c.notNull().defaultTo('[]') : c))
      .execute();
  }
}
