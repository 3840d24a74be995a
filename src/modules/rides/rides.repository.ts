import { sql, type ExpressionBuilder, type Selectable, type Updateable } from 'kysely';
import { MAX_ID, type Database, type Db, type RidesTable, type WriteDb } from '../../db/database.ts';
import { PreparedStatement } from '../../db/prepared.ts';
import type { Page } from '../../platform/pagination.ts';
import { ACTIVE_STATUSES, OPEN_STATUSES, type RideStatus } from './rides.schemas.ts';

export type RideRow = Selectable<RidesTable>;
/**
 * Statuses written into the SQL as literals, not bound as parameters: SQLite (and PostgreSQL's
 * generic plans of prepared statements) use a partial index such as "open rides per rider" only when
 * the query's condition is the index's own, value for value. With parameters the rider's open-slot
 * search read every ride the rider ever booked.
 */
export const literal = (statuses: readonly RideStatus[]) => statuses.map((status) => sql.lit(status));

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

export async function findRide(db: Db, id: number): Promise<RideRow | undefined> {
  if (id > MAX_ID) return undefined;
  return db.selectFrom('rides').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A ride booked for now, or one booked ahead that has entered dispatch (ride-schedule.ts): what drivers
 * are offered and browse, and what counts as demand waiting now.
 */
export const inDispatch = (eb: ExpressionBuilder<Database, 'rides'>) => eb.or([eb('scheduled_at', 'is', null), eb('released_at', 'is not', null)]);

/** Open requests drivers may browse, newest first. */
export function listRequested(db: Db, page: Page): Promise<RideRow[]> {
  let query = db.selectFrom('rides').selectAll().where('status', '=', 'REQUESTED').where(inDispatch);
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

/** What operators search rides by; times are booking times (epoch ms), `from` inclusive, `to` exclusive. */
export interface RideFilters {
  status?: RideStatus;
  riderId?: number;
  driverId?: number;
  from?: number;
  to?: number;
}

/** Every ride matching the filters, newest first; each filter has an index to start from. */
export function search(db: Db, filters: RideFilters, page: Page): Promise<RideRow[]> {
  let query = db.selectFrom('rides').selectAll();
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.riderId !== undefined) query = query.where('rider_id', '=', filters.riderId);
  if (filters.driverId !== undefined) query = query.where('driver_id', '=', filters.driverId);
  if (filters.from !== undefined) query = query.where('created_at', '>=', filters.from);
  if (filters.to !== undefined) query = query.where('created_at', '<', filters.to);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
}

/** The user's rides in REQUESTED, ACCEPTED or PICKED, as rider or as driver, newest first. */
export function listOpenForUser(db: Db, userId: number): Promise<RideRow[]> {
  return db
    .selectFrom('rides')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('rider_id', '=', userId), eb('status', 'in', literal(OPEN_STATUSES))]),
        eb.and([eb('driver_id', '=', userId), eb('status', 'in', literal(ACTIVE_STATUSES))]),
      ]),
    )
    .orderBy('id', 'desc')
    .execute();
}

/** The rider's rides in REQUESTED, ACCEPTED or PICKED, read inside a unit of work (an erasure). */
export function openRidesOf(db: WriteDb, riderId: number): Promise<RideRow[]> {
  return db.selectFrom('rides').selectAll().where('rider_id', '=', riderId).where('status', 'in', literal(OPEN_STATUSES)).orderBy('id').execute();
}

const SNAPSHOT_COLUMNS = [
  'id', 'status', 'rider_id', 'driver_id', 'fare', 'created_at', 'accepted_at', 'driver_lat', 'driver_lon',
  'driver_location_updated_at', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon', 'arriving_notified_at', 'stops',
] as const;

/** What public status reads and position reports need of a ride: the two most frequent requests. */
export type RideSnapshot = Pick<RideRow, (typeof SNAPSHOT_COLUMNS)[number]>;

// Prepared, these two: every ride on the move has both read again every 5 s (ride-snapshots.ts), and
// public status reads the first; built and compiled once, and on PostgreSQL planned once per connection.
const rideSnapshot = new PreparedStatement('ride_snapshot', (db, p: { id: number }) => db.selectFrom('rides').select(SNAPSHOT_COLUMNS).where('id', '=', p.id));
const activeRideOfDriver = new PreparedStatement('active_ride_of_driver', (db, p: { driver_id: number }) =>
  db.selectFrom('rides').select('id').where('driver_id', '=', p.driver_id).where('status', 'in', literal(ACTIVE_STATUSES)),
);

export async function findRideSnapshot(db: Db, id: number): Promise<RideSnapshot | undefined> {
  if (id > MAX_ID) return undefined;
  return (await rideSnapshot.rows(db, { id }))[0];
}

/** The id of the ride a driver is on now (ACCEPTED or PICKED), if any. */
export async function findActiveRideId(db: Db, driverId: number): Promise<number | undefined> {
  const [row] = await activeRideOfDriver.rows(db, { driver_id: driverId });
  return row?.id;
}

/** Moves a ride from one status to the next; the updated row, or undefined when it was no longer in `from`. */
export function transition(db: WriteDb, id: number, from: RideStatus, changes: Updateable<RidesTable> & { status: RideStatus }): Promise<RideRow | undefined> {
  return db.updateTable('rides').set(changes).where('id', '=', id).where('status', '=', from).returningAll().executeTakeFirst();
}

/**
 * Accepts a REQUESTED ride for a driver who is on no other ride, in one conditional statement: a
 * busy driver changes nothing instead of breaking the one-active-ride index (which still guards
 * concurrent accepts on PostgreSQL). Undefined when the ride or the driver was not free.
 */
export function acceptRide(db: WriteDb, id: number, driverId: number, now: number): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set({ status: 'ACCEPTED', driver_id: driverId, accepted_at: now })
    .where('id', '=', id)
    .where('status', '=', 'REQUESTED')
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('rides as busy').select('busy.id').where('busy.driver_id', '=', driverId).where('busy.status', 'in', literal(ACTIVE_STATUSES)))),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Which of these drivers are on an ACCEPTED or PICKED ride. */
export async function busyDriversAmong(db: Db, driverIds: readonly number[]): Promise<Set<number>> {
  if (driverIds.length === 0) return new Set();
  const rows = await db.selectFrom('rides').select('driver_id').where('driver_id', 'in', driverIds).where('status', 'in', literal(ACTIVE_STATUSES)).execute();
  return new Set(rows.map((row) => row.driver_id!));
}

/** Every driver on an ACCEPTED or PICKED ride (one read by the status index, however many drivers are online). */
export async function busyDrivers(db: Db): Promise<Set<number>> {
  const rows = await db.selectFrom('rides').select('driver_id').where('status', 'in', literal(ACTIVE_STATUSES)).where('driver_id', 'is not', null).execute();
  return new Set(rows.map((row) => row.driver_id!));
}

/** Whether the driver is on an ACCEPTED or PICKED ride. */
export async function isDriverBusy(db: Db, driverId: number): Promise<boolean> {
  return (await db.selectFrom('rides').select('id').where('driver_id', '=', driverId).where('status', 'in', literal(ACTIVE_STATUSES)).executeTakeFirst()) !== undefined;
}

/** The rider's or the driver's rating of a completed ride; false when that party has rated already. */
export async function setFeedback(db: WriteDb, id: number, party: 'rider' | 'driver', rating: number, comment: string): Promise<boolean> {
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
export async function claimArrivingNotice(db: WriteDb, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('rides')
    .set({ arriving_notified_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACCEPTED')
    .where('arriving_notified_at', 'is', null)
    .executeTakeFirst();
  return changed(result);
}

/**
 * PAID by this payment, unless another payment paid the ride first (its reference stays). Always
 * updates, so the row is locked: the payments and refunds of one ride run one after the other.
 */
export function setPaid(db: WriteDb, id: number, reference: string): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set((eb) => ({
      payment_status: 'PAID',
      payment_reference: eb.case().when('payment_status', '=', 'PAID').then(eb.ref('payment_reference')).else(reference).end(),
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The rider's new payment mode, in one conditional statement: any mode while the ride is open, and
 * only CASH once it is COMPLETED (then PAID: the driver collects it, as at a cash ride's completion).
 * Never for a paid or cancelled ride, nor someone else's. The ride as it is now, or undefined.
 */
export function setPaymentMode(db: WriteDb, id: number, riderId: number, mode: string): Promise<RideRow | undefined> {
  if (id > MAX_ID) return Promise.resolve(undefined);
  const ended = mode === 'CASH' ? ['CANCELLED'] : ['CANCELLED', 'COMPLETED'];
  return db
    .updateTable('rides')
    .set((eb) => ({
      payment_mode: mode,
      payment_status: eb.case().when('status', '=', 'COMPLETED').then('PAID').else(eb.ref('payment_status')).end(),
    }))
    .where('id', '=', id)
    .where('rider_id', '=', riderId)
    .where('payment_status', '!=', 'PAID')
    .where('status', 'not in', ended)
    .returningAll()
    .executeTakeFirst();
}

/** FAILED, unless the ride is PAID already. */
export async function setPaymentFailed(db: WriteDb, id: number): Promise<void> {
  await db.updateTable('rides').set({ payment_status: 'FAILED' }).where('id', '=', id).where('payment_status', '!=', 'PAID').execute();
}

/** Locks the ride's row for the rest of the transaction (a write that changes nothing) and reads it. */
export async function lockRide(db: WriteDb, id: number): Promise<RideRow | undefined> {
  if (id > MAX_ID) return undefined;
  return db.updateTable('rides').set((eb) => ({ refunded_amount: eb.ref('refunded_amount') })).where('id', '=', id).returningAll().executeTakeFirst();
}

export function addRefunded(db: WriteDb, id: number, rupees: number): Promise<RideRow | undefined> {
  return db.updateTable('rides').set((eb) => ({ refunded_amount: eb('refunded_amount', '+', rupees) })).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Open requests dispatch may offer: REQUESTED, in dispatch, with a pickup point, not yet given up on. Oldest first. */
export function listDispatchable(db: Db, limit: number): Promise<Array<Pick<RideRow, 'id' | 'rider_id' | 'ride_type' | 'fare' | 'pickup_lat' | 'pickup_lon' | 'pickup_zone' | 'created_at' | 'released_at'>>> {
  return db
    .selectFrom('rides')
    .select(['id', 'rider_id', 'ride_type', 'fare', 'pickup_lat', 'pickup_lon', 'pickup_zone', 'created_at', 'released_at'])
    .where('status', '=', 'REQUESTED')
    .where('no_driver_at', 'is', null)
    .where('pickup_lat', 'is not', null)
    .where(inDispatch)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** One more offer of the ride; the first one's time is kept. */
export async function countOffer(db: WriteDb, id: number, at: number): Promise<void> {
  await db
    .updateTable('rides')
    .set((eb) => ({ first_offer_at: eb.fn.coalesce('first_offer_at', eb.val(at)), offer_count: eb(eb.fn.coalesce('offer_count', eb.val(0)), '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export function setPickupDistance(db: WriteDb, id: number, km: number): Promise<RideRow> {
  return db.updateTable('rides').set({ pickup_distance_km: km }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Marks that no driver was found for a REQUESTED ride; the row when this call did it. */
export function markNoDriver(db: WriteDb, id: number, now: number): Promise<RideRow | undefined> {
  return db.updateTable('rides').set({ no_driver_at: now }).where('id', '=', id).where('status', '=', 'REQUESTED').where('no_driver_at', 'is', null).returningAll().executeTakeFirst();
}
