import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, RidesTable } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Transactions } from '../../db/transaction.ts';
import { isAdmin, type AuthUser } from '../../platform/auth/roles.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Clock } from '../../platform/clock.ts';
import { CoalescingWriter } from '../../platform/coalescing-writer.ts';
import type { Counters } from '../../platform/counters.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../platform/errors.ts';
import { haversineKm, plusCode, type Point } from '../../platform/geo/geo.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  cancellationFee,
  DEFAULT_RIDE_TYPE,
  quoteFare,
  RIDE_TYPES,
  roadDistanceKm,
  type CancelledBy,
  type DemandSource,
  type FareQuote,
  type RideType,
} from './pricing.ts';
import { driverArriving, rideAccepted, rideCancelled, rideCompleted, rideRequested, rideStarted } from './ride-notifications.ts';
import { toPublicRide, toRide, toRideStatus } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import { PAYMENT_MODES, type BookBody, type EstimateQuery, type PaymentMode, type PublicRide, type Ride, type RideStatus, type RideStatusView, type StatusBody } from './rides.schemas.ts';

/** A driver this close to the pickup point triggers the one DRIVER_ARRIVING notice. */
export const ARRIVING_DISTANCE_KM = 0.3;
/** Wrong ride codes allowed per code and window before the ride answers 429. */
export const RIDE_OTP_MAX_TRIES = 5;
export const RIDE_OTP_WINDOW_MS = 10 * 60_000;
/** How often the latest driver positions are written to the ride rows. */
export const POSITION_FLUSH_INTERVAL_MS = 1000;
/** How long a ride's snapshot serves status reads and position reports without asking the database. */
export const SNAPSHOT_TTL_MS = 5_000;
const SNAPSHOTS_MAX = 100_000;
const RIDE_CHANGED = 'rides.changed';

export interface RidesDependencies {
  db: Kysely<Database>;
  transactions: Transactions;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  counters: Counters;
  demand: DemandSource;
  users: Pick<AuthService, 'findUser' | 'findUsers'>;
  drivers: DriversService;
  notifications: NotificationsService;
  settings: Pick<SettingsService, 'paymentMethodOf'>;
}

export interface LocationUpdate {
  id: number;
  status: RideStatus;
  riderId: number;
  driverId: number;
  driverLat: number;
  driverLon: number;
  driverLocationUpdatedAt: string;
}

const ACTIVE: readonly RideStatus[] = ['ACCEPTED', 'PICKED'];
const TERMINAL: readonly RideStatus[] = ['COMPLETED', 'CANCELLED'];

/** The ride lifecycle: booking, the status machine, cancellation, feedback and live positions. */
export class RidesService {
  readonly #db: Kysely<Database>;
  readonly #deps: RidesDependencies;
  readonly #positions: CoalescingWriter<number, repository.RidePosition>;
  /**
   * Snapshots of rides for the two most frequent requests, public status and position reports, so
   * they read no database. Any change of a ride drops its snapshot here at once and, through the
   * event bus, on every other instance; a snapshot never lives longer than SNAPSHOT_TTL_MS.
   */
  readonly #snapshots = new BoundedMap<number, { ride: repository.RideSnapshot; until: number }>(SNAPSHOTS_MAX);

  constructor(deps: RidesDependencies) {
    this.#deps = deps;
    this.#db = deps.db;
    this.#positions = new CoalescingWriter(
      (entries) => this.#db.transaction().execute((trx) => repository.writeDriverPositions(trx, entries)),
      POSITION_FLUSH_INTERVAL_MS,
      deps.log,
    );
  }

  /** The quote a booking of the same trip is charged, surge included. */
  async estimate(query: EstimateQuery): Promise<FareQuote> {
    const pickup = point(query.pickupLat, query.pickupLon, 'pickup');
    const drop = point(query.dropLat, query.dropLon, 'drop');
    const rideType = parseRideType(query.rideType);
    if (pickup && drop) return this.#quote(roadDistanceKm(pickup, drop), rideType);
    if (query.distanceKm === undefined) {
      throw badRequest('distanceKm is required unless pickupLat, pickupLon, dropLat and dropLon are all given');
    }
    return this.#quote(query.distanceKm, rideType);
  }

  async book(user: AuthUser, body: BookBody): Promise<Ride> {
    const pickup = point(body.pickupLat, body.pickupLon, 'pickup');
    const drop = point(body.dropLat, body.dropLon, 'drop');
    const rideType = parseRideType(body.rideType);
    const paymentMode = body.paymentMode
      ? parsePaymentMode(body.paymentMode)
      : ((await this.#deps.settings.paymentMethodOf(user.id)).toUpperCase() as PaymentMode);
    // Without both points the trip length is unknown and the type's minimum fare applies.
    const quote = await this.#quote(pickup && drop ? roadDistanceKm(pickup, drop) : 0, rideType);
    const [startOtp, endOtp] = rideCodes();
    const row = await this.#deps.transactions.run(async (tx) => {
      const ride = await repository.insertRide(tx.db, {
        rider_id: user.id,
        driver_id: null,
        status: 'REQUESTED',
        ride_type: rideType,
        pickup_location: body.pickupLocation ?? null,
        drop_location: body.dropLocation ?? null,
        pickup_lat: pickup?.lat ?? null,
        pickup_lon: pickup?.lon ?? null,
        drop_lat: drop?.lat ?? null,
        drop_lon: drop?.lon ?? null,
        pickup_plus_code: body.pickupPlusCode ?? (pickup ? plusCode(pickup) : null),
        drop_plus_code: body.dropPlusCode ?? (drop ? plusCode(drop) : null),
        pickup_landmark: body.pickupLandmark ?? null,
        drop_landmark: body.dropLandmark ?? null,
        distance_km: quote.distanceKm,
        duration_minutes: quote.durationMinutes,
        surge_multiplier: quote.surgeMultiplier,
        fare: quote.fare,
        payment_mode: paymentMode,
        payment_status: 'PENDING',
        payment_reference: null,
        start_otp: startOtp,
        end_otp: endOtp,
        created_at: this.#deps.clock.now(),
      });
      await this.#deps.notifications.record(tx, rideRequested(ride));
      return ride;
    });
    return toRide(row, { otps: 'both' });
  }

  /** Open requests, newest first, without codes or e-mails. */
  async requested(page: Page): Promise<{ rides: PublicRide[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.listByStatus(this.#db, 'REQUESTED', page), page.limit);
    const riders = await this.#deps.users.findUsers(items.map((row) => row.rider_id));
    return { rides: items.map((row) => toPublicRide(row, riders.get(row.rider_id)?.name)), nextCursor };
  }

  /** Anyone may follow a ride; a ride in progress shows its driver's latest position. */
  async publicStatus(id: number): Promise<RideStatusView> {
    const row = await this.#snapshot(id);
    if (!row) throw notFound(`Ride ${id} not found`);
    const position = row.driver_id !== null && ACTIVE.includes(row.status as RideStatus) ? await this.#deps.drivers.position(row.driver_id) : undefined;
    return toRideStatus(row, position);
  }

  async history(user: AuthUser, page: Page): Promise<{ rides: Ride[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.listForUser(this.#db, user.id, page), page.limit);
    const riders = await this.#deps.users.findUsers(items.map((row) => row.rider_id));
    return { rides: items.map((row) => toRide(row, { riderName: riders.get(row.rider_id)?.name })), nextCursor };
  }

  changeStatus(user: AuthUser, id: number, body: StatusBody): Promise<Ride> {
    switch (body.status) {
      case 'ACCEPTED':
        return this.#accept(user, id, body.driverId);
      case 'PICKED':
        return this.#pickup(user, id, body.otp);
      case 'COMPLETED':
        return this.#complete(user, id, body.otp);
      case 'CANCELLED':
        return this.cancel(user, id, undefined);
    }
  }

  /** Either cancel path. The fee follows the state the ride was in when the cancellation won. */
  async cancel(user: AuthUser, id: number, reason: string | null | undefined): Promise<Ride> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.#find(id);
      const by = cancelledBy(user, row);
      if (TERMINAL.includes(row.status as RideStatus)) {
        throw conflict(`Ride ${id} is already ${row.status} and cannot be cancelled`, 'RIDE_FINISHED');
      }
      const updated = await this.#transition(row, {
        status: 'CANCELLED',
        cancelled_at: this.#deps.clock.now(),
        cancellation_reason: reason ?? '',
        cancelled_by: by,
        cancellation_fee: cancellationFee(row.status, by, row.fare),
      }, (ride) => rideCancelled(ride, by));
      if (updated) return toRide(updated);
      // The ride moved on between reading and cancelling; decide again on its new state.
    }
    throw conflict(`Ride ${id} changed while it was being cancelled; try again`, 'RIDE_CHANGED');
  }

  /** The rider rates the driver, the driver rates the rider; once each. */
  async feedback(user: AuthUser, id: number, rating: number, comment: string | null | undefined): Promise<Ride> {
    const row = await this.#find(id);
    const party = row.rider_id === user.id ? 'rider' : row.driver_id === user.id ? 'driver' : undefined;
    if (!party) throw forbidden("Only the ride's rider or driver can give feedback");
    if (row.status !== 'COMPLETED') throw badRequest(`Feedback needs a COMPLETED ride; ride ${id} is ${row.status}`, 'RIDE_NOT_COMPLETED');
    const text = comment ?? '';
    if (!(await repository.setFeedback(this.#db, id, party, rating, text))) throw conflict('You already gave feedback for this ride', 'FEEDBACK_EXISTS');
    const fields = party === 'rider' ? { rider_rating: rating, rider_feedback: text } : { driver_rating: rating, driver_feedback: text };
    return toRide({ ...row, ...fields });
  }

  /**
   * The hot path: the position goes to the location index and a pending batch, never straight to disk.
   * The first report within 300 m of the pickup point notifies the rider.
   */
  async updateLocation(user: AuthUser, id: number, position: Point): Promise<LocationUpdate> {
    const row = await this.#snapshot(id);
    if (!row) throw notFound(`Ride ${id} not found`);
    this.#assertDriverOf(user, row, 'report its location');
    if (!ACTIVE.includes(row.status as RideStatus)) {
      throw conflict(`Ride ${id} is ${row.status}; locations are taken while it is ACCEPTED or PICKED`, 'RIDE_NOT_ACTIVE');
    }
    const driverId = row.driver_id!;
    const reported = await this.#deps.drivers.reportPosition(driverId, position);
    this.#positions.set(id, { lat: reported.lat, lon: reported.lon, at: reported.updatedAt });
    if (row.status === 'ACCEPTED' && row.arriving_notified_at === null && row.pickup_lat !== null && row.pickup_lon !== null) {
      if (haversineKm(position, { lat: row.pickup_lat, lon: row.pickup_lon }) <= ARRIVING_DISTANCE_KM) await this.#noticeArrival(row);
    }
    return {
      id,
      status: row.status as RideStatus,
      riderId: row.rider_id,
      driverId,
      driverLat: reported.lat,
      driverLon: reported.lon,
      driverLocationUpdatedAt: new Date(reported.updatedAt).toISOString(),
    };
  }

  /** What the rider owes for a ride: its fare, or the fee of a cancelled ride. Only the rider pays. */
  async amountDue(user: AuthUser, id: number): Promise<number> {
    const row = await this.#find(id);
    if (row.rider_id !== user.id) throw forbidden('You can only pay for your own rides');
    if (row.payment_status === 'PAID') throw conflict(`Ride ${id} is already paid`, 'RIDE_ALREADY_PAID');
    if (row.status !== 'CANCELLED') return row.fare;
    if (!row.cancellation_fee) throw conflict(`Ride ${id} was cancelled without a fee; there is nothing to pay`, 'NOTHING_TO_PAY');
    return row.cancellation_fee;
  }

  /** Called by payments inside their transaction once the provider's signature checked out (or a failure was reported). */
  recordPayment(db: Db, id: number, outcome: { paid: true; reference: string } | { paid: false }): Promise<void> {
    return repository.setPaymentOutcome(db, id, outcome.paid ? { payment_status: 'PAID', payment_reference: outcome.reference } : { payment_status: 'FAILED' });
  }

  /** Counts behind the demand model, all from aggregate queries. */
  async demandStats(windows: { historySince: number; recentSince: number; activeSince: number; bucketMs: number }) {
    const [buckets, recentRides, openRequests, busyDrivers, activeDriverIds, acceptDelay] = await Promise.all([
      repository.countCreatedPerBucket(this.#db, windows.historySince, windows.bucketMs),
      repository.countCreatedSince(this.#db, windows.recentSince),
      repository.countWithStatus(this.#db, 'REQUESTED'),
      repository.countBusyDrivers(this.#db),
      repository.driversActiveSince(this.#db, windows.activeSince),
      repository.acceptDelaySince(this.#db, windows.recentSince),
    ]);
    return { buckets, recentRides, openRequests, busyDrivers, activeDriverIds, acceptDelay };
  }

  /** Starts forgetting rides that change on other instances. */
  listen(): Promise<void> {
    return this.#deps.bus.subscribe(RIDE_CHANGED, (message) => {
      this.#snapshots.delete((message as { id: number }).id);
    });
  }

  /** Writes the pending positions; the app calls it when shutting down. */
  close(): Promise<void> {
    return this.#positions.close();
  }

  async #accept(user: AuthUser, id: number, requestedDriver: string | number | undefined): Promise<Ride> {
    if (user.role !== 'DRIVER' && !isAdmin(user)) throw forbidden('Only drivers can accept rides');
    if (requestedDriver === undefined) throw badRequest('driverId is required to accept a ride');
    const driverId = Number(requestedDriver);
    if (!isAdmin(user) && driverId !== user.id) throw forbidden('Drivers accept rides for themselves: driverId must be your own id');
    if (isAdmin(user) && (await this.#deps.users.findUser(driverId))?.role !== 'DRIVER') {
      throw badRequest('driverId must belong to a DRIVER account');
    }
    const row = await this.#find(id);
    if (row.status !== 'REQUESTED') throw conflict(`Ride ${id} is ${row.status}; only a REQUESTED ride can be accepted`, 'RIDE_NOT_REQUESTED');
    // An account that signed up again as a driver must not drive its own booking.
    if (row.rider_id === driverId) throw forbidden('A driver cannot accept a ride they booked', 'OWN_RIDE');
    try {
      const updated = await this.#transition(row, { status: 'ACCEPTED', driver_id: driverId, accepted_at: this.#deps.clock.now() }, rideAccepted);
      if (!updated) throw conflict(`Ride ${id} was taken or cancelled a moment ago`, 'RIDE_NOT_REQUESTED');
      return toRide(updated, { otps: 'start' });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('This driver is already on another ride', 'DRIVER_BUSY');
      throw error;
    }
  }

  async #pickup(user: AuthUser, id: number, otp: string | undefined): Promise<Ride> {
    const row = await this.#onTheWay(user, id, 'ACCEPTED', 'PICKED');
    await this.#checkCode(row.id, 'start', otp, row.start_otp);
    const updated = await this.#transition(row, { status: 'PICKED', picked_at: this.#deps.clock.now() }, rideStarted);
    if (!updated) throw conflict(`Ride ${id} changed a moment ago; it is no longer ACCEPTED`, 'INVALID_TRANSITION');
    return toRide(updated, { otps: 'end' });
  }

  async #complete(user: AuthUser, id: number, otp: string | undefined): Promise<Ride> {
    const row = await this.#onTheWay(user, id, 'PICKED', 'COMPLETED');
    await this.#checkCode(row.id, 'end', otp, row.end_otp);
    // The driver collects cash at the end of the ride; online modes wait for a verified payment.
    const paymentStatus = row.payment_mode === 'CASH' ? 'PAID' : row.payment_status;
    const updated = await this.#transition(row, { status: 'COMPLETED', completed_at: this.#deps.clock.now(), payment_status: paymentStatus }, rideCompleted);
    if (!updated) throw conflict(`Ride ${id} changed a moment ago; it is no longer PICKED`, 'INVALID_TRANSITION');
    return toRide(updated);
  }

  /** Pickup and completion: drivers only, the ride in the expected state, and it must be their ride. */
  async #onTheWay(user: AuthUser, id: number, from: RideStatus, to: RideStatus) {
    if (user.role !== 'DRIVER' && !isAdmin(user)) throw forbidden(`Only the ride's driver can move it to ${to}`);
    const row = await this.#find(id);
    if (row.status !== from) throw conflict(`Ride ${id} is ${row.status}; ${to} needs ${from}`, 'INVALID_TRANSITION');
    this.#assertDriverOf(user, row, `move it to ${to}`);
    return row;
  }

  /** Each of a ride's two codes allows five tries per window; the sixth is refused even if right. */
  async #checkCode(rideId: number, which: 'start' | 'end', given: string | undefined, expected: string): Promise<void> {
    if (given === undefined) throw badRequest(`otp is required: the ride's ${which}Otp`);
    const tries = await this.#deps.counters.increment(`ride-otp:${rideId}:${which}`, RIDE_OTP_WINDOW_MS);
    if (tries.count > RIDE_OTP_MAX_TRIES) {
      throw tooManyRequests('Too many wrong codes for this ride; wait before trying again', tries.resetInMs / 1000, 'OTP_LOCKED');
    }
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw badRequest('The code does not match', 'OTP_MISMATCH');
  }

  async #noticeArrival(row: repository.RideSnapshot): Promise<void> {
    const now = this.#deps.clock.now();
    await this.#deps.transactions.run(async (tx) => {
      if (await repository.claimArrivingNotice(tx.db, row.id, now)) {
        await this.#deps.notifications.record(tx, driverArriving(row));
      }
    });
    // Claimed here or elsewhere: either way, no more claims for this ride.
    row.arriving_notified_at = now;
  }

  async #snapshot(id: number): Promise<repository.RideSnapshot | undefined> {
    const now = this.#deps.clock.now();
    const known = this.#snapshots.get(id);
    if (known && known.until > now) return known.ride;
    const ride = await repository.findRideSnapshot(this.#db, id);
    this.#snapshots.delete(id);
    if (ride) this.#snapshots.set(id, { ride, until: now + SNAPSHOT_TTL_MS });
    return ride;
  }

  /** One conditional update from the ride's current status plus its notifications, in one transaction. */
  async #transition(
    row: repository.RideRow,
    changes: Updateable<RidesTable> & { status: RideStatus },
    notices: (ride: repository.RideRow) => NewNotification[],
  ): Promise<repository.RideRow | undefined> {
    return this.#deps.transactions.run(async (tx) => {
      if (!(await repository.transition(tx.db, row.id, row.status as RideStatus, changes))) return undefined;
      const updated = { ...row, ...changes } as repository.RideRow;
      await this.#deps.notifications.record(tx, notices(updated));
      tx.afterCommit(() => {
        this.#snapshots.delete(row.id);
        this.#deps.bus.publish(RIDE_CHANGED, { id: row.id }).catch((error: unknown) => {
          this.#deps.log.warn({ err: error, rideId: row.id }, 'ride change not announced to other instances');
        });
      });
      return updated;
    });
  }

  async #find(id: number): Promise<repository.RideRow> {
    const row = await repository.findRide(this.#db, id);
    if (!row) throw notFound(`Ride ${id} not found`);
    return row;
  }

  #assertDriverOf(user: AuthUser, row: Pick<repository.RideRow, 'driver_id'>, action: string): void {
    if (row.driver_id !== user.id && !isAdmin(user)) throw forbidden(`Only the ride's driver can ${action}`);
  }

  async #quote(distanceKm: number, rideType: RideType): Promise<FareQuote> {
    return quoteFare({ distanceKm, rideType, ...(await this.#deps.demand()) });
  }
}

function cancelledBy(user: AuthUser, row: repository.RideRow): CancelledBy {
  if (row.rider_id === user.id) return 'rider';
  if (row.driver_id === user.id) return 'driver';
  if (isAdmin(user)) return 'admin';
  throw forbidden("Only the ride's rider or driver can cancel it");
}

/** Both halves of a point, or neither. */
function point(lat: number | null | undefined, lon: number | null | undefined, name: string): Point | undefined {
  if (lat == null && lon == null) return undefined;
  if (lat == null || lon == null) throw badRequest(`${name}Lat and ${name}Lon go together`);
  return { lat, lon };
}

function parseRideType(value: string | undefined): RideType {
  if (value === undefined) return DEFAULT_RIDE_TYPE;
  const type = value.trim().toLowerCase();
  if (!(RIDE_TYPES as readonly string[]).includes(type)) throw badRequest(`rideType must be one of ${RIDE_TYPES.join(', ')}`);
  return type as RideType;
}

function parsePaymentMode(value: string): PaymentMode {
  const mode = value.trim().toUpperCase();
  if (!(PAYMENT_MODES as readonly string[]).includes(mode)) throw badRequest(`paymentMode must be one of ${PAYMENT_MODES.join(', ')}`);
  return mode as PaymentMode;
}

/** Two different 4-digit codes. */
function rideCodes(): [string, string] {
  const start = String(randomInt(0, 10_000)).padStart(4, '0');
  let end = start;
  while (end === start) end = String(randomInt(0, 10_000)).padStart(4, '0');
  return [start, end];
}
