import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { MAX_ID, type Db, type RidesTable } from '../../db/database.ts';
import { prepared, preparedInsert } from '../../db/prepared.ts';
import type { Page } from '../../platform/pagination.ts';
import type { RideStatus } from './rides.schemas.ts';

export type RideRow = Selectable<RidesTable>;

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

/** Every column a booking writes; the statement is compiled once (bookings are the hottest write). */
export const insertRide: (db: Db, ride: Insertable<RidesTable>) => Promise<RideRow> = preparedInsert('rides', [
  'rider_id', 'driver_id', 'status', 'ride_type', 'pickup_location', 'drop_location', 'pickup_lat', 'pickup_lon', 'drop_lat',
  'drop_lon', 'pickup_plus_code', 'drop_plus_code', 'pickup_landmark', 'drop_landmark', 'distance_km', 'duration_minutes',
  'surge_multiplier', 'fare', 'payment_mode', 'payment_status', 'payment_reference', 'start_otp', 'end_otp', 'created_at',
]);

export async function findRide(db: Db, id: number): Promise<RideRow | undefined> {
  if (id > MAX_ID) return undefined;
  return db.selectFrom('rides').selectAll().where('id', '=', id).executeTakeFirst();
}

const selectSnapshot = prepared((db) =>
  db
    .selectFrom('rides')
    .select([
      'id', 'status', 'rider_id', 'driver_id', 'fare', 'created_at', 'accepted_at', 'driver_lat', 'driver_lon',
      'driver_location_updated_at', 'pickup_lat', 'pickup_lon', 'arriving_notified_at',
    ])
    .where('id', '=', 0),
);
/** What public status reads and position reports need of a ride: the two most frequent requests. */
export type RideSnapshot = Awaited<ReturnType<typeof selectSnapshot>>[number];

export async function findRideSnapshot(db: Db, id: number): Promise<RideSnapshot | undefined> {
  return id > MAX_ID ? undefined : (await selectSnapshot(db, [id]))[0];
}

export function listByStatus(db: Db, status: RideStatus, page: Page): Promise<RideRow[]> {
  let query = db.selectFrom('rides').selectAll().where('status', '=', status);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
}

/** Rides the user booked or drove, newest first. */
export function listForUser(db: Db, userId: number, page: Page): Promise<RideRow[]> {
  let query = db
    .selectFrom('rides')
    .selectAll()
    .where((eb) => eb.or([eb('rider_id', '=', userId), eb('driver_id', '=', userId)]));
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
}

/** Moves a ride from one status to the next; false when it was no longer in `from`. */
export async function transition(db: Db, id: number, from: RideStatus, changes: Updateable<RidesTable> & { status: RideStatus }): Promise<boolean> {
  return changed(await db.updateTable('rides').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst());
}

/** The rider's or the driver's rating of a completed ride; false when that party has rated already. */
export async function setFeedback(db: Db, id: number, party: 'rider' | 'driver', rating: number, comment: string): Promise<boolean> {
  const [ratingColumn, feedbackColumn] = party === 'rider' ? (['rider_rating', 'rider_feedback'] as const) : (['driver_rating', 'driver_feedback'] as const);
  const result = await db
    .updateTable('rides')
    .set({ [ratingColumn]: rating, [feedbackColumn]: comment })
    .where('id', '=', id)
    .where('status', '=', 'COMPLETED')
    .where(ratingColumn, 'is', null)
    .executeTakeFirst();
  return changed(result);
}

/** Claims the one DRIVER_ARRIVING notice of a ride; true for exactly one caller. */
export async function claimArrivingNotice(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('rides')
    .set({ arriving_notified_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACCEPTED')
    .where('arriving_notified_at', 'is', null)
    .executeTakeFirst();
  return changed(result);
}

export interface RidePosition {
  lat: number;
  lon: number;
  at: number;
}

// Parameters in statement order: lat, lon, at, id, at.
const updateDriverPosition = prepared((db) =>
  db
    .updateTable('rides')
    .set({ driver_lat: 0, driver_lon: 0, driver_location_updated_at: 0 })
    .where('id', '=', 0)
    .where((eb) => eb.or([eb('driver_location_updated_at', 'is', null), eb('driver_location_updated_at', '<=', 0)])),
);

/** Writes the latest driver position of many rides; an older position never replaces a newer one (a tie goes to the later write). */
export async function writeDriverPositions(db: Db, positions: ReadonlyArray<[number, RidePosition]>): Promise<void> {
  for (const [id, { lat, lon, at }] of positions) await updateDriverPosition(db, [lat, lon, at, id, at]);
}

/** PAID with the provider's payment id, or FAILED; a PAID ride stays PAID. */
export async function setPaymentOutcome(db: Db, id: number, outcome: { payment_status: 'PAID' | 'FAILED'; payment_reference?: string }): Promise<void> {
  await db.updateTable('rides').set(outcome).where('id', '=', id).where('payment_status', '!=', 'PAID').execute();
}

// Aggregates for the demand model: counts only, answered from the indexes on created_at and status.

/**
 * Rides created per bucket since `since`; `start` is the bucket's first millisecond. With 15-minute
 * buckets the counts come from the rides_created_bucket index alone, already in bucket order.
 */
export async function countCreatedPerBucket(db: Db, since: number, bucketMs: number): Promise<Array<{ start: number; count: number }>> {
  const bucket = sql<number>`created_at / ${sql.lit(bucketMs)}`;
  const rows = await db
    .selectFrom('rides')
    .select([bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
    .where(bucket, '>=', Math.floor(since / bucketMs))
    .where('created_at', '>=', since)
    .groupBy(bucket)
    .execute();
  return rows.map((row) => ({ start: Number(row.bucket) * bucketMs, count: Number(row.count) }));
}

export async function countCreatedSince(db: Db, since: number): Promise<number> {
  const row = await db.selectFrom('rides').select((eb) => eb.fn.countAll<number>().as('count')).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countWithStatus(db: Db, status: RideStatus): Promise<number> {
  const row = await db.selectFrom('rides').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', status).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Drivers on an ACCEPTED or PICKED ride. */
export async function countBusyDrivers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('rides')
    .select((eb) => eb.fn.count<number>('driver_id').distinct().as('count'))
    .where('status', 'in', ['ACCEPTED', 'PICKED'])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Drivers with ride activity since `since`: on a ride now, or accepted, finished or lost one since.
 * (Picking up and reporting positions happen between accepting and finishing.)
 */
export async function driversActiveSince(db: Db, since: number): Promise<number[]> {
  // UNION ALL then DISTINCT: a plain UNION lets SQLite merge ordered walks of the whole driver index.
  const driversWhere = (column: 'accepted_at' | 'completed_at' | 'cancelled_at') => db.selectFrom('rides').select('driver_id').where(column, '>=', since);
  const activity = driversWhere('accepted_at')
    .unionAll(driversWhere('completed_at'))
    .unionAll(driversWhere('cancelled_at'))
    .unionAll(db.selectFrom('rides').select('driver_id').where('status', 'in', ['ACCEPTED', 'PICKED']))
    .as('activity');
  const rows = await db.selectFrom(activity).select('driver_id').distinct().execute();
  // Rides cancelled before any driver took them have none.
  return rows.flatMap((row) => (row.driver_id === null ? [] : [row.driver_id]));
}

/** Mean request-to-accept delay in ms of rides created since `since`, and how many were accepted. */
export async function acceptDelaySince(db: Db, since: number): Promise<{ meanMs: number | undefined; accepted: number }> {
  const row = await db
    .selectFrom('rides')
    .select([sql<number | null>`avg(accepted_at - created_at)`.as('mean'), (eb) => eb.fn.count<number>('accepted_at').as('accepted')])
    .where('created_at', '>=', since)
    .where('accepted_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return { meanMs: row.mean === null ? undefined : Number(row.mean), accepted: Number(row.accepted) };
}
