import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for an OSRM server: /route/v1/driving and /table/v1/driving answered in OSRM's JSON
// format. Its roads run only north-south and east-west (a route is the Manhattan distance between its
// points, driven at 8 m/s), so its answers differ from every other provider's. Points north of 50°
// are on no road of its map (OSRM's NoSegment; null cells in a table). It can also hang (to test
// the client's timeout) or fail.

const METRES_PER_DEGREE = 111_195;
export const STAND_IN_SPEED_MPS = 8;

type Coordinate = [lon: number, lat: number];

/** Metres along north-south and east-west streets between two points. */
export function manhattanMetres([lon1, lat1]: Coordinate, [lon2, lat2]: Coordinate): number {
  const eastWest = Math.abs(lon2 - lon1) * METRES_PER_DEGREE * Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180);
  return Math.abs(lat2 - lat1) * METRES_PER_DEGREE + eastWest;
}

const offMap = ([, lat]: Coordinate) => lat > 50;

export class OsrmStandIn {
  /** What the server does with the next requests. */
  mode: 'answer' | 'hang' | 'fail' = 'answer';
  /** Every request's path and query, in order. */
  readonly requests: string[] = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((request, response) => {
      this.requests.push(request.url ?? '');
      if (this.mode === 'hang') return; // never answers; the client's timeout ends the call
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (this.mode === 'fail') return reply(500, { code: 'InternalError', message: 'stand-in told to fail' });
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const match = /^\/(route|table)\/v1\/driving\/([^/]+)$/.exec(url.pathname);
      if (!match) return reply(400, { code: 'InvalidUrl', message: `URL string malformed: ${url.pathname}` });
      const points = match[2].split(';').map((pair) => pair.split(',').map(Number) as Coordinate);
      if (points.some(([lon, lat]) => !Number.isFinite(lon) || !Number.isFinite(lat))) return reply(400, { code: 'InvalidQuery', message: 'Query string malformed' });
      return match[1] === 'route' ? reply(...this.#route(points, url.searchParams)) : reply(...this.#table(points, url.searchParams));
    });
  }

  async start(): Promise<this> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #route(points: Coordinate[], query: URLSearchParams): [number, unknown] {
    if (points.some(offMap)) return [400, { code: 'NoSegment', message: 'Could not find a matching segment for any coordinate.' }];
    let distance = 0;
    const corners: Coordinate[] = [points[0]];
    for (let i = 1; i < points.length; i++) {
      distance += manhattanMetres(points[i - 1], points[i]);
      corners.push([points[i - 1][0], points[i][1]], points[i]);
    }
    const route: Record<string, unknown> = { distance, duration: distance / STAND_IN_SPEED_MPS, weight: distance / STAND_IN_SPEED_MPS, weight_name: 'routability', legs: [] };
    if (query.get('overview') !== 'false' && query.get('geometries') === 'geojson') route.geometry = { type: 'LineString', coordinates: corners };
    return [200, { code: 'Ok', routes: [route], waypoints: points.map((location) => ({ location, name: '', distance: 0 })) }];
  }

  #table(points: Coordinate[], query: URLSearchParams): [number, unknown] {
    const pick = (name: string) => (query.get(name) ?? points.map((_, i) => i).join(';')).split(';').map(Number);
    const [sources, destinations] = [pick('sources'), pick('destinations')];
    const metres = (i: number, j: number) => (offMap(points[i]) || offMap(points[j]) ? null : manhattanMetres(points[i], points[j]));
    const distances = sources.map((i) => destinations.map((j) => metres(i, j)));
    const durations = distances.map((row) => row.map((d) => (d === null ? null : d / STAND_IN_SPEED_MPS)));
    const waypoint = (i: number) => ({ location: points[i], name: '', distance: 0 });
    return [200, { code: 'Ok', durations, distances, sources: sources.map(waypoint), destinations: destinations.map(waypoint) }];
  }
}
