import { badRequest } from '../../platform/errors.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { DEFAULT_RIDE_TYPE, parseRideType, RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';
import { quoteFare, roadDistanceKm, type DemandSignal, type Quote } from '../pricing/pricing.model.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { EstimateQuery } from './rides.schemas.ts';

/** Where the surge and the expected pickup wait of a quote come from. */
export type DemandSource = (pickup: Point | undefined) => Promise<DemandSignal>;

/** Both halves of a point, or neither. */
export function point(lat: number | null | undefined, lon: number | null | undefined, name: string): Point | undefined {
  if (lat == null && lon == null) return undefined;
  if (lat == null || lon == null) throw badRequest(`${name}Lat and ${name}Lon go together`);
  return { lat, lon };
}

export function rideTypeOf(value: string | undefined): RideType {
  if (value === undefined) return DEFAULT_RIDE_TYPE;
  const type = parseRideType(value);
  if (!type) throw badRequest(`rideType must be one of ${RIDE_TYPES.join(', ')}`);
  return type;
}

/** Fare quotes with the live surge: what /rides/estimate shows is what a booking of the same trip is charged. */
export class FareQuotes {
  readonly #demand: DemandSource;
  readonly #pricing: Pick<Pricing, 'current'>;

  constructor(demand: DemandSource, pricing: Pick<Pricing, 'current'>) {
    this.#demand = demand;
    this.#pricing = pricing;
  }

  estimate(query: EstimateQuery): Promise<Quote> {
    const pickup = point(query.pickupLat, query.pickupLon, 'pickup');
    const drop = point(query.dropLat, query.dropLon, 'drop');
    const rideType = rideTypeOf(query.rideType);
    if (pickup && drop) return this.quote(roadDistanceKm(pickup, drop), rideType, pickup);
    if (query.distanceKm === undefined) {
      throw badRequest('distanceKm is required unless pickupLat, pickupLon, dropLat and dropLon are all given');
    }
    return this.quote(query.distanceKm, rideType, pickup);
  }

  /** Without both points the trip length is unknown and the type's minimum fare applies (distance 0). */
  async trip(pickup: Point | undefined, drop: Point | undefined, rideType: RideType): Promise<Quote> {
    return this.quote(pickup && drop ? roadDistanceKm(pickup, drop) : 0, rideType, pickup);
  }

  /** The quote under the pricing rules in force now (the answer names their version). */
  async quote(distanceKm: number, rideType: RideType, pickup: Point | undefined): Promise<Quote> {
    const signal = await this.#demand(pickup);
    const { version, rules } = this.#pricing.current();
    return quoteFare({ distanceKm, rideType, ...signal }, rules, version);
  }
}
