import { BoundedMap } from '../bounded-map.ts';
import type { Point } from '../geo/geo.ts';
import { districtOf, zoneOf } from '../geo/zones.ts';
import { ROAD_FACTOR, type DetourFactor } from './straight-router.ts';

/**
 * How much longer than the great circle the roads are, per place: what insights learned from
 * completed trips (insights/travel-times.service.ts), each already shrunk toward the coarser one.
 */
export interface DetourFactors {
  /** The whole city (ROAD_FACTOR until trips teach otherwise). */
  city: number;
  /** Per district (H3 resolution 6): the factor of a zone no trip started in yet. */
  districts: ReadonlyMap<string, number>;
  /** Per zone (H3 resolution 8, the surge zones). */
  zones: ReadonlyMap<string, number>;
}

/**
 * Places are looked up by coordinates rounded to this many steps per degree (1/500°, about 220 m)
 * and remembered: placing a point in its zone costs about 1.5 µs, and a batched round routes 16,000
 * driver positions, so the memo saves some 25 ms a round. A zone's edge is 530 m: a point within
 * 110 m of a zone's border may take its neighbour's factor, a difference a detour factor can bear.
 */
const STEPS_PER_DEGREE = 500;
const REMEMBERED_PLACES = 100_000;

/**
 * The `straight` router's detour factor learned per zone (decisions.md "Routing and ETAs"): a trip's
 * factor is the one of the zone it starts in, else its district's, else the city's. Insights replaces
 * the factors as it learns; the router only reads them. Until anything is learned, ROAD_FACTOR.
 */
export class LearnedDetours {
  #factors: DetourFactors = { city: ROAD_FACTOR, districts: new Map(), zones: new Map() };
  readonly #places = new BoundedMap<number, number>(REMEMBERED_PLACES);

  replace(factors: DetourFactors): void {
    this.#factors = factors;
    this.#places.clear();
  }

  /** The factor of a trip from `from` (a DetourFactor for StraightRouter). */
  readonly factor: DetourFactor = (from) => {
    const { city, districts, zones } = this.#factors;
    if (zones.size === 0 && districts.size === 0) return city;
    const key = Math.round(from.lat * STEPS_PER_DEGREE) * 1e6 + Math.round(from.lon * STEPS_PER_DEGREE);
    let factor = this.#places.get(key);
    if (factor === undefined) this.#places.set(key, (factor = this.#place(from)));
    return factor;
  };

  #place(at: Point): number {
    const zone = zoneOf(at);
    const { city, districts, zones } = this.#factors;
    return zones.get(zone) ?? districts.get(districtOf(zone)) ?? city;
  }
}
