import { PostgresAdapter, sql, type Insertable, type Selectable } from 'kysely';
import { MAX_ID, type Db, type OffersTable, type WriteDb } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';

export type OfferRow = Selectable<OffersTable>;
/** What an offer adds to the ride it copies (type, fare, places): the driver, the distance, its time. */
export type NewOffer = Pick<Insertable<OffersTable>, 'ride_id' | 'driver_id' | 'pickup_distance_km' | 'pickup_eta_minutes' | 'created_at' | 'expires_at'>;

const ACTIVE = ['ACCEPTED', 'PICKED'] as const;

/**
 * Offers a ride to a driver if the ride is still REQUESTED and the driver on no ride; the unique
 * indexes keep a driver to one pending offer and a ride to one. On PostgreSQL the ride row is
 * locked, so an accept or a cancellation either comes first (and nothing is offered) or after
 * (and its hook withdraws this offer). Undefined when nothing was offered.
 */
export async function insertOffer(db: WriteDb, offer: NewOffer): Promise<OfferRow | undefined> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  try {
    return await db
      .insertInto('offers')
      .columns(['ride_id', 'driver_id', 'status', 'ride_type', 'fare', 'pickup_location', 'drop_location', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon', 'pickup_distance_km', 'pickup_eta_minutes', 'created_at', 'expires_at'])
      .expression((eb) => {
        const query = eb
          .selectFrom('rides')
          .select([
            'rides.id',
            eb.cast<number>(eb.val(offer.driver_id), 'integer').as('driver_id'),
            sql<string>`'pending'`.as('status'),
            'rides.ride_type',
            'rides.fare',
            'rides.pickup_location',
            'rides.drop_location',
            'rides.pickup_lat',
            'rides.pickup_lon',
            'rides.drop_lat',
            'rides.drop_lon',
            eb.cast<number>(eb.val(offer.pickup_distance_km), 'double precision').as('pickup_distance_km'),
            eb.cast<number>(eb.val(offer.pickup_eta_minutes), 'integer').as('pickup_eta_minutes'),
            eb.cast<number>(eb.val(offer.created_at), 'bigint').as('created_at'),
            eb.cast<number>(eb.val(offer.expires_at), 'bigint').as('expires_at'),
          ])
          .where('rides.id', '=', offer.ride_id)
          .where('rides.status', '=', 'REQUESTED')
          .where('rides.pickup_lat', 'is not', null)
          .where((w) => w.not(w.exists(w.selectFrom('rides as busy').select('busy.id').where('busy.driver_id', '=', offer.driver_id).where('busy.status', 'in', ACTIVE))));
        return postgres ? query.forUpdate('rides') : query;
      })
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    // Another offer took the driver or the ride a moment ago.
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function findOffer(db: Db, id: number): Promise<OfferRow | undefined> {
  if (id > MAX_ID) return undefined;
  return db.selectFrom('offers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function pendingForDriver(db: Db, driverId: number): Promise<OfferRow[]> {
  return db.selectFrom('offers').selectAll().where('driver_id', '=', driverId).where('status', '=', 'pending').orderBy('id', 'desc').execute();
}

/** Which of these drivers hold a pending offer. */
export async function offeredAmong(db: Db, driverIds: readonly number[]): Promise<Set<number>> {
  if (driverIds.length === 0) return new Set();
  const rows = await db.selectFrom('offers').select('driver_id').where('driver_id', 'in', driverIds).where('status', '=', 'pending').execute();
  return new Set(rows.map((row) => row.driver_id));
}

/** The driver's answer to their pending offer; undefined when it was no longer pending. */
export function decline(db: WriteDb, id: number, driverId: number, reason: string | null, now: number): Promise<OfferRow | undefined> {
  return db
    .updateTable('offers')
    .set({ status: 'declined', decline_reason: reason, answered_at: now })
    .where('id', '=', id)
    .where('driver_id', '=', driverId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** The driver's pending offer taken back (they went offline). */
export function withdrawForDriver(db: WriteDb, driverId: number, now: number): Promise<OfferRow[]> {
  return db.updateTable('offers').set({ status: 'withdrawn', answered_at: now }).where('driver_id', '=', driverId).where('status', '=', 'pending').returningAll().execute();
}

/** Pending offers whose time is up. */
export function expireDue(db: WriteDb, now: number): Promise<OfferRow[]> {
  return db.updateTable('offers').set({ status: 'expired', answered_at: now }).where('status', '=', 'pending').where('expires_at', '<=', now).returningAll().execute();
}

/**
 * A ride was accepted (by `driverId`) or cancelled (no driver): that driver's offer of it is
 * accepted, every other pending offer of the ride, and of that driver, is withdrawn.
 */
export async function closeForRide(db: WriteDb, rideId: number, driverId: number | null, now: number): Promise<{ accepted: OfferRow | undefined; withdrawn: OfferRow[] }> {
  const accepted =
    driverId === null
      ? undefined
      : await db
          .updateTable('offers')
          .set({ status: 'accepted', answered_at: now })
          .where('ride_id', '=', rideId)
          .where('driver_id', '=', driverId)
          .where('status', '=', 'pending')
          .returningAll()
          .executeTakeFirst();
  const withdrawn = await db
    .updateTable('offers')
    .set({ status: 'withdrawn', answered_at: now })
    .where('status', '=', 'pending')
    .where((eb) => (driverId === null ? eb('ride_id', '=', rideId) : eb.or([eb('ride_id', '=', rideId), eb('driver_id', '=', driverId)])))
    .returningAll()
    .execute();
  return { accepted, withdrawn };
}

/** Every offer of a ride, oldest first. */
export function forRide(db: Db, rideId: number): Promise<OfferRow[]> {
  return db.selectFrom('offers').selectAll().where('ride_id', '=', rideId).orderBy('id').execute();
}

/** Rides that have a pending offer now. */
export async function ridesWithPendingOffer(db: Db): Promise<Set<number>> {
  const rows = await db.selectFrom('offers').select('ride_id').where('status', '=', 'pending').execute();
  return new Set(rows.map((row) => row.ride_id));
}

/** For each ride, the drivers who declined it or let its offer expire: they are not asked again. */
export async function refusals(db: Db, rideIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const refused = new Map<number, Set<number>>();
  if (rideIds.length === 0) return refused;
  const rows = await db.selectFrom('offers').select(['ride_id', 'driver_id']).where('ride_id', 'in', rideIds).where('status', 'in', ['declined', 'expired']).execute();
  for (const { ride_id, driver_id } of rows) refused.set(ride_id, (refused.get(ride_id) ?? new Set()).add(driver_id));
  return refused;
}

/** Offers made in [from, to) that were answered (accepted, declined, or left to expire), at most `limit`, newest first. */
export function answeredBetween(db: Db, from: number, to: number, limit: number) {
  return db
    .selectFrom('offers')
    .select(['ride_id', 'pickup_distance_km', 'pickup_eta_minutes', 'fare', 'status', 'created_at', 'answered_at'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('status', 'in', ['accepted', 'declined', 'expired'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
