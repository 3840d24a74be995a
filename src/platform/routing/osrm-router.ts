import { BoundedMap } from '../bounded-map.ts';
import type { Point } from '../geo/geo.ts';
import { stopsOf, type Route, type RouteOptions, type Router, type RouteTable } from './router.ts';
import { silentTelemetry, type FallbackReason, type RoutingService, type RoutingTelemetry } from './routing-telemetry.ts';
import { StraightRouter } from './straight-router.ts';

// ROUTING=osrm:<url>: asks an OSRM server (its /route/v1/driving and /table/v1/driving services, JSON).
// Coordinates are rounded to 5 decimals (about a metre), both in the request and as the cache key, so a
// cached answer is exactly the answer for its key, and an estimate and the booking that follows it
// get the same route. A call that fails or takes longer than the timeout is answered by `straight`;
// failures are not cached, so the next request asks the server again.

const DEFAULT_TIMEOUT_MS = 2_000;
const DEFAULT_CACHE_ENTRIES = 10_000;
const round5 = (value: number) => Math.round(value * 1e5) / 1e5;
const coordinates = (points: readonly Point[]) => points.map((p) => `${round5(p.lon)},${round5(p.lat)}`).join(';');

export interface OsrmRouterOptions {
  /** The server's base address, without a trailing slash. */
  url: string;
  timeoutMs?: number;
  cacheEntries?: number;
  straight?: StraightRouter;
  telemetry?: RoutingTelemetry;
}

interface OsrmRoute {
  distance: number;
  duration: number;
  geometry?: { coordinates: Array<[number, number]> };
}
interface OsrmAnswer {
  code: string;
  routes?: OsrmRoute[];
  durations?: Array<Array<number | null>>;
  distances?: Array<Array<number | null>>;
}

type Call = { answer: OsrmAnswer } | { failed: FallbackReason };

export class OsrmRouter implements Router {
  readonly provider = 'osrm';
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #straight: StraightRouter;
  readonly #telemetry: RoutingTelemetry;
  readonly #cache: BoundedMap<string, Route | RouteTable>;

  constructor(options: OsrmRouterOptions) {
    this.#url = options.url;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#straight = options.straight ?? new StraightRouter();
    this.#telemetry = options.telemetry ?? silentTelemetry;
    this.#cache = new BoundedMap(options.cacheEntries ?? DEFAULT_CACHE_ENTRIES);
  }

  async route(from: Point, to: Point, via: readonly Point[] = [], options: RouteOptions = {}): Promise<Route> {
    const path = `/route/v1/driving/${coordinates(stopsOf(from, to, via))}?${options.geometry ? 'overview=full&geometries=geojson' : 'overview=false'}`;
    const cached = this.#cached<Route>('route', path);
    if (cached) return cached;
    const call = await this.#call('route', path);
    const route = 'answer' in call ? call.answer.routes?.[0] : undefined;
    if (!route || !Number.isFinite(route.distance) || !Number.isFinite(route.duration)) {
      this.#telemetry.fallback('failed' in call ? call.failed : 'failed');
      return this.#straight.routeNow(from, to, via, options);
    }
    const answer: Route = { distanceKm: route.distance / 1000, durationMinutes: route.duration / 60, provider: 'osrm' };
    if (options.geometry) answer.geometry = (route.geometry?.coordinates ?? []).map(([lon, lat]) => ({ lat, lon }));
    this.#cache.set(path, answer);
    return answer;
  }

  async table(sources: readonly Point[], destinations: readonly Point[]): Promise<RouteTable> {
    if (sources.length === 0 || destinations.length === 0) return this.#straight.tableNow(sources, destinations);
    const indexes = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(';');
    const path =
      `/table/v1/driving/${coordinates([...sources, ...destinations])}` +
      `?sources=${indexes(0, sources.length)}&destinations=${indexes(sources.length, destinations.length)}&annotations=duration,distance`;
    const cached = this.#cached<RouteTable>('table', path);
    if (cached) return cached;
    const call = await this.#call('table', path);
    const { durations, distances } = 'answer' in call ? call.answer : {};
    if (!durations || !distances || durations.length !== sources.length || distances.length !== sources.length) {
      this.#telemetry.fallback('failed' in call ? call.failed : 'failed');
      return this.#straight.tableNow(sources, destinations);
    }
    // A pair the server cannot route (null) is filled in by straight.
    let complete = true;
    const cell = (row: Array<number | null> | undefined, i: number, j: number, scale: number, straight: (route: Route) => number) => {
      const value = row?.[j];
      if (typeof value === 'number' && Number.isFinite(value)) return value / scale;
      complete = false;
      this.#telemetry.fallback('no_path');
      return straight(this.#straight.routeNow(sources[i], destinations[j]));
    };
    const table: RouteTable = {
      durationsMinutes: sources.map((_, i) => destinations.map((__, j) => cell(durations[i], i, j, 60, (r) => r.durationMinutes))),
      distancesKm: sources.map((_, i) => destinations.map((__, j) => cell(distances[i], i, j, 1000, (r) => r.distanceKm))),
      provider: 'osrm',
    };
    if (complete) this.#cache.set(path, table);
    return table;
  }

  /** A cached answer, moved to the young end of the cache (least recently used goes first). */
  #cached<T extends Route | RouteTable>(service: RoutingService, key: string): T | undefined {
    const hit = this.#cache.get(key);
    if (!hit) return undefined;
    this.#cache.delete(key);
    this.#cache.set(key, hit);
    this.#telemetry.cacheHit(service);
    return hit as T;
  }

  async #call(service: RoutingService, path: string): Promise<Call> {
    const started = performance.now();
    const done = (outcome: 'ok' | 'failed' | 'timeout') => this.#telemetry.request(service, outcome, (performance.now() - started) / 1000);
    try {
      const response = await fetch(this.#url + path, { signal: AbortSignal.timeout(this.#timeoutMs), headers: { accept: 'application/json' } });
      const answer = (await response.json()) as OsrmAnswer;
      if (response.ok && answer.code === 'Ok') {
        done('ok');
        return { answer };
      }
      done('failed');
      // OSRM's own words for a point it cannot place on a road, and for two points no road joins.
      return { failed: answer.code === 'NoSegment' ? 'off_graph' : answer.code === 'NoRoute' ? 'no_path' : 'failed' };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      done(timedOut ? 'timeout' : 'failed');
      return { failed: timedOut ? 'timeout' : 'failed' };
    }
  }
}
