import { haversineKm, Polyline, type Point } from './geo.ts';

/** A way from one point to another, and its road length. */
export interface Route {
  line: Polyline;
  km: number;
}

export interface Router {
  route(from: Point, to: Point): Promise<Route>;
}

/** The straight line, its length times the city's road factor: no map needed. */
export class StraightRouter implements Router {
  readonly #roadFactor: number;

  constructor(roadFactor: number) {
    this.#roadFactor = roadFactor;
  }

  async route(from: Point, to: Point): Promise<Route> {
    return { line: new Polyline([from, to]), km: haversineKm(from, to) * this.#roadFactor };
  }
}

const OSRM_TIMEOUT_MS = 5_000;

/**
 * Roads from an OSRM server (`OSRM_URL`, its HTTP route service). Its geometry and distance are
 * used; its free-flow duration is not: every car moves at the city's speed through traffic, as in
 * straight-line mode, so the two modes differ only in the roads. A failed request falls back to
 * the straight line, and the first failure is reported.
 */
export class OsrmRouter implements Router {
  readonly #baseUrl: string;
  readonly #fallback: Router;
  readonly #warn: (text: string) => void;
  #warned = false;
  failures = 0;

  constructor(baseUrl: string, fallback: Router, warn: (text: string) => void) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#fallback = fallback;
    this.#warn = warn;
  }

  async route(from: Point, to: Point): Promise<Route> {
    const url = `${this.#baseUrl}/route/v1/driving/${from.lon},${from.lat};${to.lon},${to.lat}?overview=full&geometries=geojson`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(OSRM_TIMEOUT_MS) });
      const body = (await response.json()) as { code?: string; routes?: Array<{ distance: number; geometry: { coordinates: Array<[number, number]> } }> };
      const best = body.routes?.[0];
      if (!response.ok || body.code !== 'Ok' || !best || best.geometry.coordinates.length < 2) throw new Error(`OSRM answered ${response.status} ${body.code ?? ''}`);
      // The road starts and ends where the car and the rider are, not at the nearest snapped node.
      const points = [from, ...best.geometry.coordinates.map(([lon, lat]) => ({ lat, lon })), to];
      return { line: new Polyline(points), km: best.distance / 1000 };
    } catch (error) {
      this.failures++;
      if (!this.#warned) {
        this.#warned = true;
        this.#warn(`OSRM at ${this.#baseUrl} failed (${(error as Error).message}); using straight lines where it fails`);
      }
      return this.#fallback.route(from, to);
    }
  }
}

/** A car on a route: where it is at a simulated time, and when it arrives. */
export class Motion {
  readonly route: Route;
  readonly startAt: number;
  readonly arrivesAt: number;

  constructor(route: Route, startAt: number, speedKmh: number) {
    this.route = route;
    this.startAt = startAt;
    this.arrivesAt = startAt + (route.km / speedKmh) * 3_600_000;
  }

  at(time: number): Point {
    const span = this.arrivesAt - this.startAt;
    return this.route.line.at(span <= 0 ? 1 : (time - this.startAt) / span);
  }
}
