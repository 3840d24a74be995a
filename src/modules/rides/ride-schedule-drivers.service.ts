import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import { assertNotOwnRide } from './ride-access.ts';
import { OVERLAP_MARGIN_MS } from './ride-schedule.ts';
import * as schedule from './ride-schedule.repository.ts';
import { toPublicRide, toRide } from './ride-views.ts';
import { findRide } from './rides.repository.ts';
import type { PublicRide, Ride } from './rides.schemas.ts';

/** Upcoming rides a driver is shown at most. */
const UPCOMING_LIMIT = 50;
const KM_PER_DEGREE = 111.2;

/** Where a driver may take rides from: their position now and the widest radius dispatch searches. */
export interface Reach {
  at: Point;
  radiusKm: number;
}

export interface ScheduledRideDriversDependencies {
  db: Db;
  transactions: Transactions;
  events: DomainEventsDispatcher;
  clock: Clock;
  /** Locks the driver's profile for the take's unit, so two takes of one driver follow each other. */
  profiles: Pick<DriverProfiles, 'assertMayAccept' | 'lockIn'>;
}

/**
 * A driver and the rides booked ahead: which they could serve (GET /drivers/me/upcoming) and
 * taking one ahead, which holds it for them unless it overlaps a ride they already hold.
 */
export class ScheduledRideDrivers {
  readonly #deps: ScheduledRideDriversDependencies;

  constructor(deps: ScheduledRideDriversDependencies) {
    this.#deps = deps;
  }

  /** Rides no driver has taken, of the types the vehicle serves, picking up within reach; and the rides the driver holds. */
  async upcoming(driverId: number, rideTypes: readonly RideType[], reach: Reach | undefined): Promise<{ open: PublicRide[]; taken: Ride[] }> {
    const [open, taken] = await Promise.all([reach ? this.#open(rideTypes, reach) : [], schedule.takenBy(this.#deps.db, driverId)]);
    return { open: open.filter((ride) => ride.rider_id !== driverId).map((ride) => toPublicRide(ride)), taken: taken.map((ride) => toRide(ride)) };
  }

  /** Takes the ride ahead for the driver: 409 SCHEDULE_OVERLAP when it overlaps one they hold. */
  async take(driverId: number, rideId: number, reach: Reach | undefined): Promise<Ride> {
    const ride = await findRide(this.#deps.db, rideId);
    if (!ride) throw notFound(`Ride ${rideId} not found`);
    await this.#deps.profiles.assertMayAccept(driverId, ride.ride_type as RideType, false);
    assertNotOwnRide(ride, driverId);
    if (ride.scheduled_at === null || ride.released_at !== null || ride.status !== 'REQUESTED' || ride.driver_id !== null) {
      throw conflict(`Ride ${rideId} is not a ride booked ahead waiting for a driver`, 'RIDE_NOT_REQUESTED');
    }
    if (!reach || haversineKm(reach.at, { lat: ride.pickup_lat!, lon: ride.pickup_lon! }) > reach.radiusKm) {
      throw conflict(`Ride ${rideId} picks up beyond the ${reach?.radiusKm ?? 0} km you can be offered rides from; go online near it`, 'OUT_OF_REACH');
    }
    const taken = await this.#deps.transactions.run(async (tx: Tx) => {
      await this.#deps.profiles.lockIn(tx, driverId);
      const row = await schedule.take(tx.db, rideId, driverId, OVERLAP_MARGIN_MS);
      if (row) await this.#deps.events.emit(tx, 'ride.moved', { ride: row, from: 'REQUESTED' });
      return row;
    });
    if (taken) return toRide(taken);
    const now = await findRide(this.#deps.db, rideId);
    if (now?.driver_id === null && now.released_at === null && now.status === 'REQUESTED') {
      throw conflict(`Ride ${rideId} overlaps a ride you hold (each from ${OVERLAP_MARGIN_MS / 60_000} minutes before its pickup to as long after its expected drop)`, 'SCHEDULE_OVERLAP');
    }
    throw conflict(`Ride ${rideId} was taken or cancelled a moment ago`, 'RIDE_NOT_REQUESTED');
  }

  #open(rideTypes: readonly RideType[], reach: Reach) {
    const dLat = reach.radiusKm / KM_PER_DEGREE;
    const dLon = dLat / Math.max(0.01, Math.cos((reach.at.lat * Math.PI) / 180));
    const box = { minLat: reach.at.lat - dLat, maxLat: reach.at.lat + dLat, minLon: reach.at.lon - dLon, maxLon: reach.at.lon + dLon };
    return schedule
      .listUpcoming(this.#deps.db, { rideTypes, box, after: this.#deps.clock.now(), limit: UPCOMING_LIMIT })
      .then((rows) => rows.filter((ride) => haversineKm(reach.at, { lat: ride.pickup_lat!, lon: ride.pickup_lon! }) <= reach.radiusKm));
  }
}
