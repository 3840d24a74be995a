import { ApiError, expectConflict, type ApiClient } from './api.ts';
import type { BookBody, Ride } from './api-types.ts';
import type { PlannedBooking } from './demand.ts';
import type { ResumeClient } from '../src/contract/realtime-client.ts';
import type { RiderSide, SimRide, World } from './world.ts';

/** How long after the drop-off a rider pays and rates. */
const AFTER_TRIP_MS = 60_000;

/**
 * A simulated rider's app and the person holding it: books the trips the day's plan gives them,
 * follows each over the realtime channel, cancels when they change their mind or lose patience,
 * tells the driver their codes, then pays and rates.
 */
export class SimRider implements RiderSide {
  readonly index: number;
  readonly client: ApiClient;
  readonly #world: World;
  readonly #connection: ResumeClient;
  readonly #codes = new Map<number, { start?: string; end?: string }>();
  #ride: SimRide | undefined;
  #booking = false;

  constructor(index: number, client: ApiClient, world: World) {
    this.index = index;
    this.client = client;
    this.#world = world;
    this.#connection = client.realtime(
      {
        message: (message) => {
          if (message.type === 'ride.updated') world.observe(message.data);
        },
        resync: () => world.settings.scheduler.run(() => this.#resync()),
      },
      (text) => world.settings.warn(`rider ${this.index}: ${text}`),
    );
  }

  /** Not booking and not on a trip: a person books one ride at a time. */
  get free(): boolean {
    return !this.#booking && this.#ride === undefined;
  }

  /** The ride this rider is waiting for or on, if any. */
  get ride(): SimRide | undefined {
    return this.#ride;
  }

  open(): Promise<void> {
    return this.#connection.ready();
  }

  close(): void {
    this.#connection.stop();
  }

  async book(booking: PlannedBooking): Promise<void> {
    const { ledger, scheduler, clock } = this.#world.settings;
    this.#booking = true;
    let view: Ride;
    let aheadMs = booking.plan.aheadMs;
    try {
      try {
        view = await this.client.book(this.#bookBody(booking, aheadMs));
      } catch (error) {
        // The service books no sooner than SCHEDULE_MIN_LEAD_MINUTES of its own (wall-clock) time,
        // which a fast run's lead may not reach (an embedded service has it scaled): booked for now.
        if (!(aheadMs !== null && error instanceof ApiError && error.code === 'SCHEDULE_TOO_SOON')) throw error;
        this.#world.tooSoonToBookAhead();
        aheadMs = null;
        view = await this.client.book(this.#bookBody(booking, null));
      }
    } catch (error) {
      // Refused (a code of the service's) or not answered at all: either way not a request of the day.
      const answered = error instanceof ApiError && error.status !== 0;
      ledger.bookingFailed(answered ? error.code : 'NO_ANSWER');
      if (!answered) this.#world.settings.warn(`booking not answered: ${(error as Error).message}`);
      return;
    } finally {
      this.#booking = false;
    }
    this.#codes.set(view.id, { start: view.startOtp, end: view.endOtp });
    const ride = this.#world.register(view, booking, this, aheadMs);
    if (ride.status !== 'REQUESTED') return;
    this.#ride = ride;
    const { changesMindAfterMs, patienceMs } = booking.plan;
    if (changesMindAfterMs !== null) scheduler.after(changesMindAfterMs, () => this.#cancelWhile(ride, 'REQUESTED', 'changed my mind'));
    // A rider who booked ahead starts waiting at the time they booked for.
    scheduler.at(clock.now() + (aheadMs ?? 0) + patienceMs, () => this.#cancelWhile(ride, 'REQUESTED', 'waited too long', 'gave-up'));
  }

  #bookBody(booking: PlannedBooking, aheadMs: number | null): BookBody {
    const { payments, clock } = this.#world.settings;
    return {
      pickupLat: booking.pickup.point.lat,
      pickupLon: booking.pickup.point.lon,
      dropLat: booking.drop.point.lat,
      dropLon: booking.drop.point.lon,
      pickupLocation: booking.pickup.name,
      dropLocation: booking.drop.name,
      rideType: booking.rideType,
      paymentMode: payments.modeFor(booking.plan.paysOnline),
      stops: booking.stops.map((stop, i) => ({ ...stop, place: `Stop ${i + 1} on the way` })),
      // The service's clock is the wall clock: the simulated lead, in wall-clock time.
      ...(aheadMs !== null && { scheduledAt: new Date(Date.now() + clock.realMsUntil(clock.now() + aheadMs)).toISOString() }),
    };
  }

  code(rideId: number, which: 'start' | 'end'): string | undefined {
    return this.#codes.get(rideId)?.[which];
  }

  noDriverFound(ride: SimRide): void {
    this.#world.settings.scheduler.run(() => this.#cancelWhile(ride, 'REQUESTED', 'no driver found', 'no-driver'));
  }

  accepted(ride: SimRide): void {
    const after = ride.facts.booking.plan.cancelsAfterAcceptMs;
    if (after !== null) this.#world.settings.scheduler.after(after, () => this.#cancelWhile(ride, 'ACCEPTED', 'the driver is taking too long'));
  }

  ended(ride: SimRide): void {
    if (this.#ride === ride) this.#ride = undefined;
    this.#codes.delete(ride.facts.rideId);
    if (ride.status === 'COMPLETED') this.#world.settings.scheduler.after(AFTER_TRIP_MS, () => this.#afterTrip(ride));
  }

  /** The run is over: an open ride is cancelled so nobody is left waiting on the service. */
  async endRun(): Promise<void> {
    const ride = this.#ride;
    if (!ride) return;
    ride.facts.endedByRun = true;
    try {
      this.#world.observe(await this.client.cancel(ride.facts.rideId, 'the simulation ended'));
    } catch (error) {
      expectConflict(error);
      // It ended by itself a moment ago.
      if (ride.status === 'COMPLETED') ride.facts.endedByRun = false;
    }
  }

  async #cancelWhile(ride: SimRide, status: 'REQUESTED' | 'ACCEPTED', reason: string, unmatched?: 'no-driver' | 'gave-up'): Promise<void> {
    if (ride.status !== status) return;
    let view: Ride;
    try {
      view = await this.client.cancel(ride.facts.rideId, reason);
    } catch (error) {
      // A driver accepted (or the trip moved on) just before: the rider goes on with it.
      return expectConflict(error);
    }
    if (unmatched && !view.acceptedAt) ride.facts.unmatched = unmatched;
    this.#world.observe(view);
  }

  async #afterTrip(ride: SimRide): Promise<void> {
    const { ledger, payments } = this.#world.settings;
    ledger.payments[await payments.settle(this.client, ride.facts)]++;
    const rating = ride.facts.booking.plan.rating;
    if (rating === null) return;
    await this.client.rate(ride.facts.rideId, rating);
    ledger.ratings.push(rating);
  }

  async #resync(): Promise<void> {
    const ride = this.#ride;
    if (ride) this.#world.observe(await this.client.rideStatus(ride.facts.rideId));
  }
}
