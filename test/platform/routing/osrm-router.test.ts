import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Point } from '../../../src/platform/geo/geo.ts';
import { OsrmRouter } from '../../../src/platform/routing/osrm-router.ts';
import type { FallbackReason, RoutingTelemetry } from '../../../src/platform/routing/routing-telemetry.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';
import { manhattanMetres, OsrmStandIn, STAND_IN_SPEED_MPS } from '../../helpers/osrm-stand-in.ts';

const MG_ROAD = { lat: 12.9716, lon: 77.5946 };
const KORAMANGALA = { lat: 12.9352, lon: 77.6245 };
const INDIRANAGAR = { lat: 12.9784, lon: 77.6408 };
const OFF_MAP = { lat: 55.1, lon: 77.6 };
const metresBetween = (a: Point, b: Point) => manhattanMetres([a.lon, a.lat], [b.lon, b.lat]);

/** Telemetry that remembers what it was told. */
function recorder() {
  const seen = { requests: [] as string[], hits: [] as string[], fallbacks: [] as FallbackReason[] };
  const telemetry: RoutingTelemetry = {
    request: (service, outcome) => seen.requests.push(`${service} ${outcome}`),
    cacheHit: (service) => seen.hits.push(service),
    fallback: (reason) => seen.fallbacks.push(reason),
  };
  return { seen, telemetry };
}

describe('the OSRM provider', () => {
  let osrm: OsrmStandIn;
  before(async () => {
    osrm = await new OsrmStandIn().start();
  });
  beforeEach(() => {
    osrm.mode = 'answer';
    osrm.requests.length = 0;
  });
  after(() => osrm.stop());

  test("asks the route service with lon,lat pairs rounded to 5 decimals and answers the server's distance and time", async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: osrm.url, telemetry });
    const from = { lat: 12.971_604_9, lon: 77.594_600_2 };
    const route = await router.route(from, KORAMANGALA);
    assert.deepEqual(osrm.requests, ['/route/v1/driving/77.5946,12.9716;77.6245,12.9352?overview=false']);
    const metres = metresBetween(MG_ROAD, KORAMANGALA);
    assert.equal(route.provider, 'osrm');
    assert.equal(route.distanceKm, metres / 1000);
    assert.equal(route.durationMinutes, metres / STAND_IN_SPEED_MPS / 60);
    assert.deepEqual(seen.requests, ['route ok']);
  });

  test('stops go in order; the path comes as points when asked for', async () => {
    const router = new OsrmRouter({ url: osrm.url });
    const route = await router.route(MG_ROAD, INDIRANAGAR, [KORAMANGALA], { geometry: true });
    assert.match(osrm.requests[0], /^\/route\/v1\/driving\/77\.5946,12\.9716;77\.6245,12\.9352;77\.6408,12\.9784\?overview=full&geometries=geojson$/);
    assert.equal(route.distanceKm, (metresBetween(MG_ROAD, KORAMANGALA) + metresBetween(KORAMANGALA, INDIRANAGAR)) / 1000);
    assert.deepEqual(route.geometry?.[0], MG_ROAD);
    assert.deepEqual(route.geometry?.at(-1), INDIRANAGAR);
  });

  test('answers are cached by rounded coordinates, the least recently used going first', async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: osrm.url, telemetry, cacheEntries: 2 });
    const a = await router.route(MG_ROAD, KORAMANGALA);
    assert.deepEqual(await router.route({ lat: MG_ROAD.lat + 0.000_001, lon: MG_ROAD.lon }, KORAMANGALA), a, 'a tenth of a metre away: the same key');
    await router.route(MG_ROAD, INDIRANAGAR); // b
    await router.route(MG_ROAD, KORAMANGALA); // a again: now the most recent
    await router.route(KORAMANGALA, INDIRANAGAR); // c pushes out b, the least recently used
    assert.equal(osrm.requests.length, 3);
    await router.route(MG_ROAD, KORAMANGALA);
    assert.equal(osrm.requests.length, 3, 'a is still cached');
    await router.route(MG_ROAD, INDIRANAGAR);
    assert.equal(osrm.requests.length, 4, 'b was not');
    assert.deepEqual(seen.hits, ['route', 'route', 'route']);
  });

  test('a table asks the table service once; a pair the server cannot route is filled from straight', async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: osrm.url, telemetry });
    const sources = [MG_ROAD, KORAMANGALA];
    const destinations = [INDIRANAGAR, OFF_MAP];
    const table = await router.table(sources, destinations);
    assert.deepEqual(osrm.requests, [
      '/table/v1/driving/77.5946,12.9716;77.6245,12.9352;77.6408,12.9784;77.6,55.1?sources=0;1&destinations=2;3&annotations=duration,distance',
    ]);
    assert.equal(table.provider, 'osrm');
    const straight = new StraightRouter();
    for (const [i, source] of sources.entries()) {
      assert.equal(table.distancesKm[i][0], metresBetween(source, INDIRANAGAR) / 1000);
      assert.equal(table.durationsMinutes[i][0], metresBetween(source, INDIRANAGAR) / STAND_IN_SPEED_MPS / 60);
      assert.equal(table.distancesKm[i][1], straight.routeNow(source, OFF_MAP).distanceKm);
    }
    assert.deepEqual(seen.fallbacks, ['no_path', 'no_path', 'no_path', 'no_path'], 'two cells, durations and distances');
  });

  test('a server that fails or cannot place a point is answered by straight, and not cached', async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: osrm.url, telemetry });
    osrm.mode = 'fail';
    assert.deepEqual(await router.route(MG_ROAD, KORAMANGALA), new StraightRouter().routeNow(MG_ROAD, KORAMANGALA));
    assert.deepEqual(await router.table([MG_ROAD], [KORAMANGALA]), new StraightRouter().tableNow([MG_ROAD], [KORAMANGALA]));
    osrm.mode = 'answer';
    assert.equal((await router.route(MG_ROAD, KORAMANGALA)).provider, 'osrm', 'asked again once it answers');
    assert.equal((await router.route(MG_ROAD, OFF_MAP)).provider, 'straight');
    assert.deepEqual(seen.requests, ['route failed', 'table failed', 'route ok', 'route failed']);
    assert.deepEqual(seen.fallbacks, ['failed', 'failed', 'off_graph']);
  });

  test('a server slower than the timeout is answered by straight', async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: osrm.url, telemetry, timeoutMs: 150 });
    osrm.mode = 'hang';
    const route = await router.route(MG_ROAD, KORAMANGALA);
    assert.equal(route.provider, 'straight');
    assert.deepEqual(seen.requests, ['route timeout']);
    assert.deepEqual(seen.fallbacks, ['timeout']);
  });

  test('an address with nothing listening is a failure, answered by straight', async () => {
    const { seen, telemetry } = recorder();
    const router = new OsrmRouter({ url: 'http://127.0.0.1:1', telemetry });
    assert.equal((await router.route(MG_ROAD, KORAMANGALA)).provider, 'straight');
    assert.deepEqual(seen.fallbacks, ['failed']);
  });
});
