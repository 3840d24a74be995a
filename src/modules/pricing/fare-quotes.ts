import type { Clock } from '../../platform/clock.ts';
import { badRequest } from '../../platform/errors.ts';
import { point, type Point } from '../../platform/geo/geo.ts';
import type { RouteProvider, Router } from '../../platform/routing/router.ts';
import { DEFAULT_RIDE_TYPE, parseRideType, RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';
import type { InsightsService } from '../insights/insights.service.ts';
import type { TravelTimes } from '../insights/travel-times.service.ts';
import { quoteFare, withPickupWait, type Quote } from './pricing.model.ts';
import type { Pricing } from './pricing.service.ts';

/** What GET /rides/estimate asks (rides' EstimateQuery): a distance, or the points to route between. */
export interface EstimateInput {
  distanceKm?: number;
  rideType?: string;
  pickupLat?: number;
  pickupLon?: number;
  dropLat?: number;
  dropLon?: number;
}

/** Minutes until the nearest available driver who could take a ride of this type reaches the pickup; undefined when none is near. */
export interface PickupWaitSource {
  minutes(pickup: Point, rideType: RideType): Promise<number | undefined>;
}

export function rideTypeOf(value: string | undefined): RideType {
  if (value === undefined) return DEFAULT_RIDE_TYPE;
  const type = parseRideType(value);
  if (!type) throw badRequest(`rideType must be one of ${RIDE_TYPES.join(', ')}`);
  return type;
}

/** A quote and who measured its trip (null: the caller gave the distance, or there was no trip to measure). */
export type TripQuote = Quote & { routeProvider: RouteProvider | null };

/** The trip a quote prices: its length, and the router's driving time when a router measured it. */
interface Trip {
  distanceKm: number;
  drivingMinutes?: number;
  routeProvider: RouteProvider | null;
}

/**
 * Fare quotes with the live surge: what /rides/estimate shows is what a booking of the same trip is
 * charged. An estimate with a pickup point also says how soon a driver of that type could be there.
 * Pricing asks insights for the pickup zone's surge and the expected wait itself; rides (the estimate
 * route, booking) asks pricing for the quote.
 */
export class FareQuotes {
  readonly #demand: Pick<InsightsService, 'signalAt'>;
  readonly #pricing: Pick<Pricing, 'current'>;
  readonly #router: Pick<Router, 'route'>;
  readonly #waits: PickupWaitSource;
  readonly #time: { clock: Clock; timeZone: string };
  readonly #learned: Pick<TravelTimes, 'correction'> | undefined;

  /**
   * `time`: the clock and SERVICE_TIMEZONE that place a trip's expected drop in or out of the night window.
   * `learned`: insights' travel times, which correct the router's minutes by what completed trips took.
   */
  constructor(demand: Pick<InsightsService, 'signalAt'>, pricing: Pick<Pricing, 'current'>, router: Pick<Router, 'route'>, waits: PickupWaitSource, time: { clock: Clock; timeZone: string }, learned?: Pick<TravelTimes, 'correction'>) {
    this.#demand = demand;
    this.#pricing = pricing;
    this.#router = router;
    this.#waits = waits;
    this.#time = time;
    this.#learned = learned;
  }

  async estimate(query: EstimateInput): Promise<TripQuote> {
    const pickup = point(query.pickupLat, query.pickupLon, 'pickup');
    const drop = point(query.dropLat, query.dropLon, 'drop');
    const rideType = rideTypeOf(query.rideType);
    if (!(pickup && drop) && query.distanceKm === undefined) {
      throw badRequest('distanceKm is required unless pickupLat, pickupLon, dropLat and dropLon are all given');
    }
    const [quote, driverMinutes] = await Promise.all([
      pickup && drop ? this.trip(pickup, drop, rideType) : this.#quote(Promise.resolve({ distanceKm: query.distanceKm!, routeProvider: null }), rideType, pickup),
      pickup ? this.#waits.minutes(pickup, rideType) : undefined,
    ]);
    if (!pickup) return quote;
    // The nearest driver's way decides the pickup wait, corrected by what trips around the pickup took at this hour;
    // without one near, the forecast's city-wide wait stays.
    const learned = this.#learned?.correction(pickup, pickup, this.#time.clock.now()) ?? 1;
    const waited = driverMinutes === undefined ? quote : withPickupWait(quote, driverMinutes * learned);
    return { ...waited, driverNearby: driverMinutes !== undefined };
  }

  /** Without both points the trip length is unknown and the type's minimum fare applies (distance 0). */
  async trip(pickup: Point | undefined, drop: Point | undefined, rideType: RideType): Promise<TripQuote> {
    if (!pickup || !drop) return this.#quote(Promise.resolve({ distanceKm: 0, routeProvider: null }), rideType, pickup);
    const route = this.#router.route(pickup, drop);
    const learned = this.#learned?.correction(pickup, drop, this.#time.clock.now()) ?? 1;
    return this.#quote(route.then(({ distanceKm, durationMinutes, provider }) => ({ distanceKm, drivingMinutes: durationMinutes * learned, routeProvider: provider })), rideType, pickup);
  }

  /** The quote under the pricing rules in force now (the answer names their version); routing and demand are asked at once. */
  async #quote(measured: Promise<Trip>, rideType: RideType, pickup: Point | undefined): Promise<TripQuote> {
    const [trip, signal] = await Promise.all([measured, this.#demand.signalAt(pickup)]);
    const { version, rules } = this.#pricing.current();
    const quote = quoteFare(
      { distanceKm: trip.distanceKm, drivingMinutes: trip.drivingMinutes, rideType, ...signal, now: this.#time.clock.now(), timeZone: this.#time.timeZone },
      rules,
      version,
    );
    return { ...quote, routeProvider: trip.routeProvider };
  }
}
