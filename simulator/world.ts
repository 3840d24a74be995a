import type { Ride, RideStatus } from './api-types.ts';
import type { City } from './cities.ts';
import type { Scheduler, SimClock } from './clock.ts';
import type { PlannedBooking } from './demand.ts';
import type { Ledger, RideFacts } from './figures.ts';
import type { PaymentStep } from './payments.ts';
import type { Router } from './routing.ts';

/** What the world tells a ride's rider about it. */
export interface RiderSide {
  /** The service found no driver in time; the ride is still open. */
  noDriverFound(ride: SimRide): void;
  accepted(ride: SimRide): void;
  /** The ride was completed or cancelled. */
  ended(ride: SimRide): void;
  /** The codes the rider got at booking: told to the driver at pickup and at the drop, as a person would. */
  code(rideId: number, which: 'start' | 'end'): string | undefined;
}

/** What the world tells a ride's driver about it. */
export interface DriverSide {
  readonly index: number;
  cancelled(ride: SimRide): void;
}

/** A ride of this run, as the simulated apps know it. */
export interface SimRide {
  readonly facts: RideFacts;
  readonly rider: RiderSide;
  driver: DriverSide | undefined;
  status: RideStatus;
  noDriverSeen: boolean;
}

/** What the service says of a ride: an answer or a realtime message (the whole view), or a status read. */
export type RideNews = Pick<Ride, 'id' | 'status'> & Partial<Pick<Ride, 'noDriverFoundAt' | 'cancelledBy' | 'acceptedAt' | 'fareBreakdown'>>;

const RANK: Record<RideStatus, number> = { REQUESTED: 0, ACCEPTED: 1, PICKED: 2, COMPLETED: 3, CANCELLED: 3 };
/** How long a driver waits to learn about a ride it was offered (an offer can beat the booking's answer home). */
const UNKNOWN_RIDE_WAIT_MS = 3_000;

export interface WorldSettings {
  seed: number;
  city: City;
  clock: SimClock;
  scheduler: Scheduler;
  ledger: Ledger;
  router: Router;
  payments: PaymentStep;
  baseUrl: string;
  /** Time of day the run started at, in minutes after midnight. */
  startMinute: number;
  /** Simulated ms between two position reports of a driver. */
  reportEveryMs: number;
  warn(text: string): void;
}

/**
 * The shared state of a run: every ride this run booked, and the one place where news of a ride
 * (from an HTTP answer or a realtime message, whichever comes first) moves it forward and tells
 * its rider and driver. News never moves a ride back, so late or repeated messages change nothing.
 */
export class World {
  readonly settings: WorldSettings;
  readonly rides = new Map<number, SimRide>();
  readonly #waiting = new Map<number, Array<(ride: SimRide) => void>>();
  #toldTooSoon = false;

  constructor(settings: WorldSettings) {
    this.settings = settings;
  }

  get now(): number {
    return this.settings.clock.now();
  }

  /** A ride just booked (`aheadMs` after now, or null: for now): from now on, news of it counts. */
  register(view: Ride, booking: PlannedBooking, rider: RiderSide, aheadMs: number | null): SimRide {
    const facts: RideFacts = { booking, rideId: view.id, bookedAt: this.now, fare: view.fare, paymentMode: view.paymentMode, surge: view.surgeMultiplier };
    if (aheadMs !== null) facts.aheadMs = aheadMs;
    const ride: SimRide = { facts, rider, driver: undefined, status: 'REQUESTED', noDriverSeen: false };
    this.rides.set(view.id, ride);
    this.settings.ledger.rides.set(view.id, facts);
    for (const resolve of this.#waiting.get(view.id) ?? []) resolve(ride);
    this.#waiting.delete(view.id);
    this.observe(view);
    return ride;
  }

  /** The service would not book that soon ahead: said once a run. */
  tooSoonToBookAhead(): void {
    if (this.#toldTooSoon) return;
    this.#toldTooSoon = true;
    this.settings.warn("the service's SCHEDULE_MIN_LEAD_MINUTES is longer than this run's leads at this speed: rides planned ahead are booked for now");
  }

  /** The ride of this run with this id, waiting briefly for its booking's answer; undefined for a ride someone else booked. */
  async rideKnown(rideId: number): Promise<SimRide | undefined> {
    const known = this.rides.get(rideId);
    if (known) return known;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), UNKNOWN_RIDE_WAIT_MS);
      const waiters = this.#waiting.get(rideId) ?? [];
      waiters.push((ride) => {
        clearTimeout(timer);
        resolve(ride);
      });
      this.#waiting.set(rideId, waiters);
    });
  }

  observe(news: RideNews): void {
    const ride = this.rides.get(news.id);
    if (!ride) return;
    if (news.status === 'REQUESTED') {
      if (news.noDriverFoundAt && ride.status === 'REQUESTED' && !ride.noDriverSeen) {
        ride.noDriverSeen = true;
        ride.rider.noDriverFound(ride);
      }
      return;
    }
    if (RANK[news.status] <= RANK[ride.status]) return;
    ride.status = news.status;
    const { facts } = ride;
    const now = this.now;
    switch (news.status) {
      case 'ACCEPTED':
        facts.acceptedAt = now;
        ride.rider.accepted(ride);
        return;
      case 'PICKED':
        facts.acceptedAt ??= now;
        facts.pickedAt = now;
        return;
      case 'COMPLETED':
        facts.completedAt = now;
        if (news.fareBreakdown) {
          const { fare, waitingFare, tollsFare, parkingFare, night } = news.fareBreakdown;
          facts.charged = { fare, waitingFare, tollsAndParking: tollsFare + parkingFare, night };
        }
        ride.rider.ended(ride);
        return;
      case 'CANCELLED':
        // A driver accepted a moment before the cancellation, and the news of it had not arrived yet.
        if (news.acceptedAt) facts.acceptedAt ??= now;
        facts.cancelledAt = now;
        facts.cancelledBy = news.cancelledBy === 'driver' || news.cancelledBy === 'admin' ? news.cancelledBy : 'rider';
        ride.driver?.cancelled(ride);
        ride.rider.ended(ride);
        return;
    }
  }

  /** Rides not yet completed or cancelled. */
  openRides(): SimRide[] {
    return [...this.rides.values()].filter((ride) => RANK[ride.status] < 3);
  }
}
