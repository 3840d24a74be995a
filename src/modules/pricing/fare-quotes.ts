import type { Clock } from '../../platform/clock.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { point } from '../../platform/geo/request-point.ts';
import type { RouteProvider, Router } from '../../platform/routing/router.ts';
import { DEFAULT_RIDE_TYPE, parseRideType, RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';
import type { InsightsService } from '../insights/insights.service.ts';
import type { TravelTimes } from '../insights/travel-times.service.ts';
import { MAX_STOPS, quoteFare, withPickupWait, type Quote } from './pricing.model.ts';
import type { Pricing } from './pricing.service.ts';

/** What GET /rides/estimate asks (rides' EstimateQuery): a distance, or the points to route between. */
export interface EstimateInput {
  distanceKm?: number;
  rideType?: string;
  pickupLat?: number;
  pickupLon?: number;
  dropLat?: number;
  dropLon?: number;
  /** Up to 3 stops between pickup and drop, `lat,lon` each, separated by `;` (rides' EstimateQuery checks the form). */
  stops?: string;
}

/**
 * Minutes until the nearest available driver who could take a ride of this type reaches the pickup
 * (by the router, corrected by learned travel times); undefined when none is near.
 */
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

/** The trip a quote prices: its length, and the router's driving time when a router measured it; the stops on the way. */
interface Trip {
  distanceKm: number;
  drivingMinutes?: number;
  routeProvider: RouteProvider | null;
  stops: number;
}

/** An estimate's `stops` (`lat,lon;lat,lon`) as points, each within the coordinates' ranges. */
export function stopsOfQuery(stops: string | undefined): Point[] {
  if (stops === undefined || stops === '') return [];
  const points = stops.split(';').map((pair) => {
    const [lat, lon] = pair.split(',').map(Number);
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) throw badRequest('Each stop is lat,lon: a latitude within ±90 and a longitude within ±180');
    return { lat, lon };
  });
  if (points.length > MAX_STOPS) throw badRequest(`A trip has at most ${MAX_STOPS} stops`);
  return points;
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
    const stops = stopsOfQuery(query.stops);
    if (!(pickup && drop) && query.distanceKm === undefined) {
      throw badRequest('distanceKm is required unless pickupLat, pickupLon, dropLat and dropLon are all given');
    }
    if (!(pickup && drop) && stops.length > 0) throw badRequest('Stops need pickupLat, pickupLon, dropLat and dropLon: the trip is routed through them');
    const [quote, driverMinutes] = await Promise.all([
      pickup && drop ? this.trip(pickup, drop, rideType, stops) : this.#quote(Promise.resolve({ distanceKm: query.distanceKm!, routeProvider: null, stops: 0 }), rideType, pickup),
      pickup ? this.#waits.minutes(pickup, rideType) : undefined,
    ]);
    if (!pickup) return quote;
    // The nearest driver's way (in learned minutes, PickupWaitSource's) decides the pickup wait; without one near, the forecast's city-wide wait stays.
    const waited = driverMinutes === undefined ? quote : withPickupWait(quote, driverMinutes);
    return { ...waited, driverNearby: driverMinutes !== undefined };
  }

  /**
   * Routed through `stops` in order, each adding perStop. Without both points the trip length is
   * unknown and the type's minimum fare applies (distance 0). `scheduledAt`: a ride booked ahead,
   * priced for its own time (night window, learned travel times) and without surge, since today's
   * demand says nothing about that hour's.
   */
  async trip(pickup: Point | undefined, drop: Point | undefined, rideType: RideType, stops: readonly Point[] = [], scheduledAt?: number): Promise<TripQuote> {
    if (!pickup || !drop) return this.#quote(Promise.resolve({ distanceKm: 0, routeProvider: null, stops: 0 }), rideType, pickup, scheduledAt);
    const route = this.#router.route(pickup, drop, stops);
    const learned = this.#learned?.correction(pickup, drop, scheduledAt ?? this.#time.clock.now()) ?? 1;
    return this.#quote(
      route.then(({ distanceKm, durationMinutes, provider }) => ({ distanceKm, drivingMinutes: durationMinutes * learned, routeProvider: provider, stops: stops.length })),
      rideType,
      pickup,
      scheduledAt,
    );
  }

  /** The quote under the pricing rules in force now (the answer names their version); routing and demand are asked at once. */
  async #quote(measured: Promise<Trip>, rideType: RideType, pickup: Point | undefined, scheduledAt?: number): Promise<TripQuote> {
    const [trip, signal] = await Promise.all([measured, this.#demand.signalAt(pickup)]);
    const { version, rules } = this.#pricing.current();
    const when = scheduledAt === undefined ? { now: this.#time.clock.now() } : { now: scheduledAt, surgeMultiplier: 1 };
    const quote = quoteFare(
      { distanceKm: trip.distanceKm, drivingMinutes: trip.drivingMinutes, rideType, ...signal, ...when, timeZone: this.#time.timeZone, stops: trip.stops },
      rules,
      version,
    );
    return { ...quote, routeProvider: trip.routeProvider };
  }
}
