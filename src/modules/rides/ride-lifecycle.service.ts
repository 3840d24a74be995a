import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Actor } from '../../platform/audit.ts';
import { isAdmin } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import { acceptingDriver, actsAsOperator, assertNotOwnRide, assertStep } from './ride-access.ts';
import type { RideCancellation } from './ride-cancellation.service.ts';
import type { RideCodes } from './ride-codes.ts';
import { assertInDispatch } from './ride-schedule.ts';
import { rideAccepted, rideCompleted, rideStarted } from './ride-notifications.ts';
import type { RideTransitions } from './ride-transitions.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { Ride, StatusBody } from './rides.schemas.ts';
import type { TripFares } from './trip-fares.ts';
import { completeTrip } from './trip.repository.ts';

export interface LifecycleDependencies {
  db: Db;
  transitions: RideTransitions;
  cancellation: RideCancellation;
  codes: RideCodes;
  profiles: Pick<DriverProfiles, 'assertMayAccept'>;
  clock: Clock;
  /** The fare at completion, from the trip that happened. */
  fares: Pick<TripFares, 'completion'>;
}

/** A ride's way from REQUESTED to COMPLETED: accept, pickup with the start code, completion with the end code. */
export class RideLifecycle {
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  /** POST /rides/status/{id}: one endpoint for every step; an operator's step for someone else is audited. */
  changeStatus(user: Actor, id: number, body: StatusBody): Promise<Ride> {
    switch (body.status) {
      case 'ACCEPTED':
        return this.accept(user, id, body.driverId);
      case 'PICKED':
        return this.#pickup(user, id, body.otp);
      case 'COMPLETED':
        return this.#complete(user, id, body.otp);
      case 'CANCELLED':
        return this.#deps.cancellation.cancel(user, id, undefined);
    }
  }

  /**
   * The single conditional update that decides who gets a ride, and the one accept rule: every path
   * (POST /rides/status, offers, an operator accepting for a driver) comes through here.
   */
  async accept(user: Actor, id: number, requestedDriver: string | number | undefined): Promise<Ride> {
    const driverId = acceptingDriver(user, requestedDriver);
    const [ride, busy] = await Promise.all([this.#find(id), repository.isDriverBusy(this.#deps.db, driverId)]);
    await this.#deps.profiles.assertMayAccept(driverId, ride.ride_type as RideType, isAdmin(user));
    if (ride.status !== 'REQUESTED') throw conflict(`Ride ${id} is ${ride.status}; only a REQUESTED ride can be accepted`, 'RIDE_NOT_REQUESTED');
    assertNotOwnRide(ride, driverId);
    assertInDispatch(ride);
    // Refused before the write: on SQLite every write waits its turn in one batch, and a busy
    // driver's accepts (often sent again and again) would take turns from everyone's bookings.
    // The conditional update below still decides the races these reads cannot see.
    if (busy) throw conflict('This driver is already on another ride', 'DRIVER_BUSY');
    const now = this.#deps.clock.now();
    let accepted: repository.RideRow | undefined;
    try {
      accepted = await this.#deps.transitions.move(ride, { status: 'ACCEPTED', driver_id: driverId, accepted_at: now }, rideAccepted, {
        update: (tx) => repository.acceptRide(tx.db, id, driverId, now),
        operator: isAdmin(user) ? user : undefined,
      });
    } catch (error) {
      // Two accepts of one driver racing on PostgreSQL: the one-active-ride index stops the second.
      if (isUniqueViolation(error)) throw conflict('This driver is already on another ride', 'DRIVER_BUSY');
      throw error;
    }
    if (accepted) return toRide(accepted, { codes: 'start' });
    if (await repository.isDriverBusy(this.#deps.db, driverId)) throw conflict('This driver is already on another ride', 'DRIVER_BUSY');
    throw conflict(`Ride ${id} was taken or cancelled a moment ago`, 'RIDE_NOT_REQUESTED');
  }

  async #pickup(user: Actor, id: number, otp: string | undefined): Promise<Ride> {
    const ride = await this.#find(id);
    assertStep(user, ride, 'ACCEPTED', 'PICKED');
    await this.#deps.codes.check(ride.id, 'start', otp, ride.start_otp);
    const picked = await this.#deps.transitions.move(ride, { status: 'PICKED', picked_at: this.#deps.clock.now() }, rideStarted, { operator: actsAsOperator(user, ride) ? user : undefined });
    if (!picked) throw conflict(`Ride ${id} changed a moment ago; it is no longer ACCEPTED`, 'INVALID_TRANSITION');
    return toRide(picked, { codes: 'end' });
  }

  async #complete(user: Actor, id: number, otp: string | undefined): Promise<Ride> {
    let ride = await this.#find(id);
    assertStep(user, ride, 'PICKED', 'COMPLETED');
    await this.#deps.codes.check(ride.id, 'end', otp, ride.end_otp);
    // A toll the driver adds (or a stop marked) while the fare is being computed must not be shown to the
    // rider and left out of what they pay: the step holds only if they are still the ones the fare counted.
    for (let attempt = 1; ; attempt++) {
      // The driver collects cash at the end of the ride; online modes wait for a verified payment.
      const paymentStatus = ride.payment_mode === 'CASH' ? 'PAID' : ride.payment_status;
      // The fare from the trip that happened: the upfront quote stays beside it (docs/rides.md).
      const changes = { status: 'COMPLETED' as const, ...(await this.#deps.fares.completion(ride)), payment_status: paymentStatus };
      const counted = { charges_total: ride.charges_total, stops: ride.stops };
      const completed = await this.#deps.transitions.move(ride, changes, rideCompleted, {
        operator: actsAsOperator(user, ride) ? user : undefined,
        update: (tx) => completeTrip(tx.db, id, counted, changes),
      });
      if (completed) return toRide(completed);
      ride = await this.#find(id);
      if (ride.status !== 'PICKED' || attempt === 3) throw conflict(`Ride ${id} changed a moment ago; it is no longer PICKED`, 'INVALID_TRANSITION');
    }
  }

  async #find(id: number): Promise<repository.RideRow> {
    const ride = await repository.findRide(this.#deps.db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    return ride;
  }
}
