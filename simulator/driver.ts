import { hourOfWeekAt, trafficSpeedKmh } from './traffic.ts';
import { ApiError, expectConflict, type ApiClient } from './api.ts';
import type { Offer, ServerMessage } from './api-types.ts';
import { driverRating, idleWait, offerAnswer, pickupWait, stopWait, tripCharges } from './behaviour.ts';
import type { Scheduled } from './clock.ts';
import { busyCentre, minuteOfDay, type PlannedDriver } from './demand.ts';
import { haversineKm, offsetKm, rounded, type Point } from './geo.ts';
import type { ResumeClient } from '../src/contract/realtime-client.ts';
import { Motion } from './routing.ts';
import type { DriverSide, SimRide, World } from './world.ts';

type State = { kind: 'offline' } | { kind: 'idle' } | { kind: 'to-pickup'; ride: SimRide } | { kind: 'on-trip'; ride: SimRide };

/**
 * A simulated driver's app and the person holding it: online with a vehicle, reporting where the
 * car is over the realtime channel, answering offers, driving to the rider, and confirming pickup
 * and drop-off with the codes the rider tells them.
 */
export class SimDriver implements DriverSide {
  readonly index: number;
  readonly plan: PlannedDriver;
  readonly client: ApiClient;
  readonly #world: World;
  readonly #connection: ResumeClient;
  #state: State = { kind: 'offline' };
  #position: Point;
  #motion: Motion | undefined;
  #arrival: Scheduled | undefined;
  #wander: Scheduled | undefined;
  #tick: Scheduled | undefined;
  #offer: number | undefined;
  #trips = 0;
  /** Counts the drives begun or ended, so a route that arrives after its drive was called off is dropped. */
  #journeys = 0;

  constructor(plan: PlannedDriver, client: ApiClient, world: World) {
    this.index = plan.index;
    this.plan = plan;
    this.client = client;
    this.#world = world;
    this.#position = plan.start;
    this.#connection = client.realtime(
      {
        message: (message) => this.#hear(message),
        resync: () => world.settings.scheduler.run(() => this.#resync()),
      },
      (text) => world.settings.warn(`driver ${this.index}: ${text}`),
    );
  }

  /** Registers the vehicle and opens the app's realtime channel. */
  async prepare(): Promise<void> {
    const serial = String(this.index + 1).padStart(4, '0');
    await this.client.saveProfile({ vehicleType: this.plan.vehicle, vehicleNumber: `${this.#world.settings.city.plate}01SM${serial}`, vehicleModel: 'Simulated' });
    await this.#connection.ready();
  }

  goOnline(): void {
    const now = this.#world.now;
    this.#state = { kind: 'idle' };
    this.#world.settings.ledger.driverOnline(this.index, now);
    this.#report(now);
    this.#idleFrom(now);
  }

  /** Off the map: the service stops showing and offering the driver. */
  async goOffline(): Promise<void> {
    if (this.#state.kind === 'offline') return;
    this.#state = { kind: 'offline' };
    for (const timer of [this.#tick, this.#arrival, this.#wander]) timer?.cancel();
    this.#world.settings.ledger.driverOffline(this.index, this.#world.now);
    await this.client.goOffline();
  }

  close(): void {
    this.#connection.stop();
  }

  cancelled(ride: SimRide): void {
    if (this.#rideOf() !== ride) return;
    const now = this.#world.now;
    this.#position = this.#where(now);
    this.#free(now);
  }

  #where(now: number): Point {
    return this.#motion ? this.#motion.at(now) : this.#position;
  }

  #rideOf(): SimRide | undefined {
    return this.#state.kind === 'to-pickup' || this.#state.kind === 'on-trip' ? this.#state.ride : undefined;
  }

  /** A position now, and the next one a report interval later, as long as the driver is online. */
  #report(now: number): void {
    if (this.#state.kind === 'offline') return;
    this.#connection.send({ type: 'position', ...rounded(this.#where(now)) });
    this.#tick?.cancel();
    this.#tick = this.#world.settings.scheduler.after(this.#world.settings.reportEveryMs, () => this.#report(this.#world.now));
  }

  #hear(message: ServerMessage): void {
    switch (message.type) {
      case 'offer.created':
        return this.#world.settings.scheduler.run(() => this.#consider(message.data));
      case 'offer.withdrawn':
      case 'offer.expired':
        if (this.#offer === message.data.offerId) this.#offer = undefined;
        return;
      case 'ride.updated':
        return this.#world.observe(message.data);
    }
  }

  async #consider(offer: Offer): Promise<void> {
    const { ledger, seed, scheduler } = this.#world.settings;
    ledger.offers.received++;
    this.#offer = offer.offerId;
    const ride = await this.#world.rideKnown(offer.rideId);
    if (!ride) {
      // Someone else's rider on a shared service: a simulated car must not keep them waiting.
      return void this.client.declineOffer(offer.offerId, 'simulated driver').catch(() => undefined);
    }
    const { answer, afterMs } = offerAnswer(seed, this.index, ride.facts.booking.index);
    if (answer === 'ignore') {
      ledger.offers.ignored++;
      return;
    }
    scheduler.after(afterMs, () => (answer === 'accept' ? this.#accept(offer, ride) : this.#decline(offer)));
  }

  async #decline(offer: Offer): Promise<void> {
    if (this.#offer !== offer.offerId) return;
    this.#offer = undefined;
    this.#world.settings.ledger.offers.declined++;
    await this.client.declineOffer(offer.offerId, 'too far for me').catch(expectConflict);
  }

  async #accept(offer: Offer, ride: SimRide): Promise<void> {
    const { ledger } = this.#world.settings;
    if (this.#offer !== offer.offerId || this.#state.kind !== 'idle') return;
    this.#offer = undefined;
    let view;
    try {
      view = await this.client.acceptOffer(offer.offerId);
    } catch (error) {
      // Withdrawn, expired or taken a moment ago.
      expectConflict(error);
      ledger.offers.missed++;
      return;
    }
    const now = this.#world.now;
    ledger.offers.accepted++;
    this.#position = this.#where(now);
    this.#wander?.cancel();
    ride.driver = this;
    ride.facts.pickupKm = Math.round(haversineKm(this.#position, ride.facts.booking.pickup.point) * 1000) / 1000;
    this.#state = { kind: 'to-pickup', ride };
    ledger.driverBusy(this.index, now);
    this.#world.observe(view);
    // The rider cancelled as the driver accepted: the news came first, so nobody told the driver.
    if (ride.status === 'CANCELLED') return this.#free(now);
    if (this.#rideOf() === ride) await this.#driveTo(ride.facts.booking.pickup.point, () => this.#pickUp(ride));
  }

  /**
   * Arrives at the point and confirms pickup or drop-off with the rider's code. Undefined (and the
   * driver free) when the ride ended meanwhile, which the service answers with a conflict.
   */
  async #confirm(ride: SimRide, point: Point, status: 'PICKED' | 'COMPLETED'): Promise<number | undefined> {
    const now = this.#arrive(point);
    try {
      const otp = ride.rider.code(ride.facts.rideId, status === 'PICKED' ? 'start' : 'end');
      this.#world.observe(await this.client.changeStatus(ride.facts.rideId, { status, otp }));
      return now;
    } catch (error) {
      expectConflict(error);
      this.#free(now);
      return undefined;
    }
  }

  async #pickUp(ride: SimRide): Promise<void> {
    if (this.#state.kind !== 'to-pickup' || this.#state.ride !== ride) return;
    // A late rider: the car waits at the pickup (its position says it is there), then the rider gets in.
    const waitMs = pickupWait(this.#world.settings.seed, ride.facts.booking.index);
    if (waitMs > 0) {
      this.#arrive(ride.facts.booking.pickup.point);
      this.#arrival = this.#world.settings.scheduler.after(waitMs, () => this.#board(ride));
      return;
    }
    await this.#board(ride);
  }

  async #board(ride: SimRide): Promise<void> {
    if (this.#state.kind !== 'to-pickup' || this.#state.ride !== ride) return;
    const now = await this.#confirm(ride, ride.facts.booking.pickup.point, 'PICKED');
    if (now === undefined || this.#rideOf() !== ride) return;
    this.#state = { kind: 'on-trip', ride };
    await this.#addCharges(ride);
    await this.#onward(ride, 0);
  }

  /** On to the ride's stop `index`, or to the drop once the stops are behind. */
  async #onward(ride: SimRide, index: number): Promise<void> {
    if (this.#rideOf() !== ride) return;
    const stop = ride.facts.booking.stops[index];
    if (stop) await this.#driveTo(stop, () => this.#atStop(ride, index));
    else await this.#driveTo(ride.facts.booking.drop.point, () => this.#drop(ride));
  }

  /** At a stop: marked reached, the car waits there (charged beyond the free minutes), then drives on. */
  async #atStop(ride: SimRide, index: number): Promise<void> {
    if (this.#state.kind !== 'on-trip' || this.#state.ride !== ride) return;
    const now = this.#arrive(ride.facts.booking.stops[index]);
    try {
      this.#world.observe(await this.client.stopArrived(ride.facts.rideId, index));
    } catch (error) {
      expectConflict(error);
      this.#free(now);
      return;
    }
    const { scheduler, seed } = this.#world.settings;
    this.#arrival = scheduler.after(stopWait(seed, ride.facts.booking.index, index), () => this.#onward(ride, index + 1));
  }

  /**
   * The tolls and parking of this trip, added as it starts (the rider hears of each at once). A
   * service whose pricing version caps them below (the first version's cap is ₹0) refuses them:
   * counted, not an error.
   */
  async #addCharges(ride: SimRide): Promise<void> {
    const { ledger, seed } = this.#world.settings;
    for (const charge of tripCharges(seed, ride.facts.booking.index)) {
      try {
        this.#world.observe(await this.client.addCharge(ride.facts.rideId, charge));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'CHARGES_CAP_REACHED') ledger.chargesRefused++;
        else expectConflict(error);
      }
    }
  }

  async #drop(ride: SimRide): Promise<void> {
    if (this.#state.kind !== 'on-trip' || this.#state.ride !== ride) return;
    const now = await this.#confirm(ride, ride.facts.booking.drop.point, 'COMPLETED');
    if (now === undefined) return;
    this.#trips++;
    this.#free(now);
    const rating = driverRating(this.#world.settings.seed, ride.facts.booking.index);
    if (rating !== null) this.#world.settings.scheduler.after(30_000, () => this.client.rate(ride.facts.rideId, rating));
  }

  /** At the point: the car stops there and says so at once (the pickup's arrival notice depends on it). */
  #arrive(point: Point): number {
    const now = this.#world.now;
    this.#motion = undefined;
    this.#position = point;
    this.#report(now);
    return now;
  }

  async #driveTo(point: Point, onArrival: () => Promise<void>): Promise<void> {
    const { router, city, scheduler, startMinute } = this.#world.settings;
    const journey = ++this.#journeys;
    const from = this.#where(this.#world.now);
    const route = await router.route(from, point);
    if (journey !== this.#journeys) return;
    // Traffic of the hour and the place the car sets off from (traffic.ts): the rushes and the busy centres are slow.
    const motion = new Motion(route, this.#world.now, trafficSpeedKmh(city, from, hourOfWeekAt(startMinute, this.#world.now)));
    this.#position = from;
    this.#motion = motion;
    this.#arrival?.cancel();
    this.#arrival = scheduler.at(motion.arrivesAt, onArrival);
  }

  #free(now: number): void {
    if (this.#state.kind === 'offline') return;
    this.#journeys++;
    this.#arrival?.cancel();
    this.#position = this.#where(now);
    this.#motion = undefined;
    this.#state = { kind: 'idle' };
    this.#world.settings.ledger.driverFree(this.index, now);
    this.#idleFrom(now);
  }

  /** After a while without a ride the driver heads for where riders are at this time of day. */
  #idleFrom(now: number): void {
    const { seed, city, scheduler, startMinute } = this.#world.settings;
    const { afterMs, random } = idleWait(seed, this.index, this.#trips);
    this.#wander?.cancel();
    this.#wander = scheduler.at(now + afterMs, async () => {
      if (this.#state.kind !== 'idle') return;
      if (this.#offer !== undefined) return this.#idleFrom(this.#world.now);
      const centre = busyCentre(city, minuteOfDay(startMinute, this.#world.now), random);
      const target = rounded(offsetKm(centre, random.normal() * centre.spreadKm * 0.5, random.normal() * centre.spreadKm * 0.5));
      await this.#driveTo(target, async () => {
        this.#position = target;
        this.#motion = undefined;
        this.#idleFrom(this.#world.now);
      });
    });
  }

  async #resync(): Promise<void> {
    const ride = this.#rideOf();
    if (ride) this.#world.observe(await this.client.rideStatus(ride.facts.rideId));
  }
}
