import type { Point } from '../geo/geo.ts';

// One interface for every way of measuring a trip: the great circle with a detour factor, an imported
// road graph, or an OSRM server. app.ts picks one from ROUTING (create-router.ts); everything that
// needs a distance or a driving time (quotes now; pickup ETAs, dispatch costs and the final fare
// later) asks it. Pure types and names, so the web apps can import them too.

/** Who answered a route: `straight` also answers when another provider could not. */
export const ROUTE_PROVIDERS = ['straight', 'graph', 'osrm'] as const;
export type RouteProvider = (typeof ROUTE_PROVIDERS)[number];

export interface Route {
  distanceKm: number;
  /** Driving time, not rounded (a quote rounds it up to whole minutes). */
  durationMinutes: number;
  provider: RouteProvider;
  /** The path as points, when asked for. */
  geometry?: Point[];
}

/** From every source (rows) to every destination (columns). */
export interface RouteTable {
  durationsMinutes: number[][];
  distancesKm: number[][];
  /** Who answered; a cell the provider could not route (a point off its roads) is filled by `straight`. */
  provider: RouteProvider;
}

export interface RouteOptions {
  /** Ask for the path's points too (it costs more: OSRM then sends them). */
  geometry?: boolean;
}

export interface Router {
  /** The provider chosen by ROUTING (a route says who actually answered it). */
  readonly provider: RouteProvider;
  /** The fastest route from `from` through each of `via` in order to `to`. */
  route(from: Point, to: Point, via?: readonly Point[], options?: RouteOptions): Promise<Route>;
  /** Driving times and distances between many points at once (dispatch costs). */
  table(sources: readonly Point[], destinations: readonly Point[]): Promise<RouteTable>;
}

/** The stops of a route in order: from, each via, to. */
export const stopsOf = (from: Point, to: Point, via: readonly Point[] = []): Point[] => [from, ...via, to];
