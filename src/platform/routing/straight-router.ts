import { haversineKm, type Point } from '../geo/geo.ts';
import { stopsOf, type Route, type RouteOptions, type Router, type RouteTable } from './router.ts';

// The provider that needs no data: the great circle times a detour factor, driven at one city speed.
// It is also what every other provider falls back to. No Node import: the web apps use these numbers.

/** Roads are longer than the great circle between two points. */
export const ROAD_FACTOR = 1.3;
/** Average city speed that turns distance into minutes. */
export const CITY_SPEED_KMH = 24;

/**
 * How much longer than the great circle the roads from one point to another are: a constant (the
 * web apps, the benchmarks), or the factor learned per zone from completed trips (learned-detours.ts).
 */
export type DetourFactor = (from: Point, to: Point) => number;
export const constantDetour: DetourFactor = () => ROAD_FACTOR;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Road distance between two points, to 10 m. */
export const straightDistanceKm = (from: Point, to: Point, detour: DetourFactor = constantDetour): number => round2(haversineKm(from, to) * detour(from, to));

/** Minutes to drive a distance at city speed, not rounded. */
export const cityMinutes = (distanceKm: number): number => (distanceKm / CITY_SPEED_KMH) * 60;

export class StraightRouter implements Router {
  readonly provider = 'straight';
  readonly #detour: DetourFactor;

  constructor(detour: DetourFactor = constantDetour) {
    this.#detour = detour;
  }

  /** The same answer without a promise, for the providers that fall back to it. */
  routeNow(from: Point, to: Point, via: readonly Point[] = [], options: RouteOptions = {}): Route {
    const stops = stopsOf(from, to, via);
    let distanceKm = 0;
    for (let i = 1; i < stops.length; i++) distanceKm += straightDistanceKm(stops[i - 1], stops[i], this.#detour);
    distanceKm = round2(distanceKm);
    return { distanceKm, durationMinutes: cityMinutes(distanceKm), provider: 'straight', ...(options.geometry ? { geometry: stops } : {}) };
  }

  async route(from: Point, to: Point, via?: readonly Point[], options?: RouteOptions): Promise<Route> {
    return this.routeNow(from, to, via, options);
  }

  tableNow(sources: readonly Point[], destinations: readonly Point[]): RouteTable {
    const distancesKm = sources.map((source) => destinations.map((destination) => straightDistanceKm(source, destination, this.#detour)));
    return { distancesKm, durationsMinutes: distancesKm.map((row) => row.map(cityMinutes)), provider: 'straight' };
  }

  async table(sources: readonly Point[], destinations: readonly Point[]): Promise<RouteTable> {
    return this.tableNow(sources, destinations);
  }
}
