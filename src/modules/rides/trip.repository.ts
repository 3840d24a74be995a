import type { Db, WriteDb } from '../../db/database.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { Updateable } from 'kysely';
import type { RidesTable } from '../../db/database.ts';
import type { RideRow } from './rides.repository.ts';

// The trip that happened, as the ride's row keeps it: the arrival at the pickup, the running
// distance while PICKED and the charges the driver added. Each write is one conditional statement.

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

/** The first report within 100 m of the pickup while ACCEPTED: waiting is measured from it. */
export async function markArrived(db: WriteDb, id: number, now: number): Promise<boolean> {
  return changed(await db.updateTable('rides').set({ arrived_at: now }).where('id', '=', id).where('status', '=', 'ACCEPTED').where('arrived_at', 'is', null).executeTakeFirst());
}

/** Where the trip's distance was last counted to (null before the first position after the pickup). */
export async function tripProgress(db: Db, id: number): Promise<{ last: Point | null; pickup: Point | null } | undefined> {
  const row = await db.selectFrom('rides').select(['status', 'trip_last_lat', 'trip_last_lon', 'pickup_lat', 'pickup_lon']).where('id', '=', id).executeTakeFirst();
  if (!row || row.status !== 'PICKED') return undefined;
  return {
    last: row.trip_last_lat === null || row.trip_last_lon === null ? null : { lat: row.trip_last_lat, lon: row.trip_last_lon },
    pickup: row.pickup_lat === null || row.pickup_lon === null ? null : { lat: row.pickup_lat, lon: row.pickup_lon },
  };
}

/** Adds a stretch to the running distance, if nobody counted from `from` meanwhile (false: read again). */
export async function advanceTrip(db: WriteDb, id: number, from: Point | null, to: Point, km: number): Promise<boolean> {
  let query = db
    .updateTable('rides')
    .set((eb) => ({ trip_distance_km: eb('trip_distance_km', '+', km), trip_last_lat: to.lat, trip_last_lon: to.lon }))
    .where('id', '=', id)
    .where('status', '=', 'PICKED');
  query = from === null ? query.where('trip_last_lat', 'is', null) : query.where('trip_last_lat', '=', from.lat).where('trip_last_lon', '=', from.lon);
  return changed(await query.executeTakeFirst());
}

/** The charges with one more, if the ride is still PICKED and nobody added one meanwhile; the updated row. */
export function addCharge(db: WriteDb, id: number, totalBefore: number, totalAfter: number, charges: string): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set({ charges_total: totalAfter, trip_charges: charges })
    .where('id', '=', id)
    .where('status', '=', 'PICKED')
    .where('charges_total', '=', totalBefore)
    .returningAll()
    .executeTakeFirst();
}

/** The stops as `before` became `after`, if the ride is still PICKED and nobody changed them meanwhile; the updated row. */
export function changeStops(db: WriteDb, id: number, before: string, after: string): Promise<RideRow | undefined> {
  return db.updateTable('rides').set({ stops: after }).where('id', '=', id).where('status', '=', 'PICKED').where('stops', '=', before).returningAll().executeTakeFirst();
}

/**
 * Completes a PICKED ride with the fare computed from `counted`'s charges and stops, if no charge was
 * added and no stop marked meanwhile (undefined: read again and compute once more, or the ride is no
 * longer PICKED).
 */
export function completeTrip(db: WriteDb, id: number, counted: Pick<RideRow, 'charges_total' | 'stops'>, changes: Updateable<RidesTable> & { status: 'COMPLETED' }): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'PICKED')
    .where('charges_total', '=', counted.charges_total)
    .where('stops', '=', counted.stops)
    .returningAll()
    .executeTakeFirst();
}
