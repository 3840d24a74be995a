import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { distanceKm, type Point } from '../../../src/platform/geo/geo.ts';
import { encodeRoadGraph } from '../../../src/platform/routing/road-graph.ts';
import { importRoads } from '../../../src/platform/routing/road-import.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { gridPoint, osmXml, streetGrid } from '../../helpers/osm.ts';
import { manhattanMetres, OsrmStandIn, STAND_IN_SPEED_MPS } from '../../helpers/osrm-stand-in.ts';
import { acceptedRide, assertOk, bookRide } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// The estimate and the booking measure trips with the router ROUTING chose, say which provider
// answered, and charge the same fare; the fare formula is the pricing model's, unchanged.

const STEP = 0.01; // blocks of about 1.1 km, so fares are above the minimum
const RESIDENTIAL_KMH = 20;
const query = (from: Point, to: Point, rideType = 'sedan') => `/rides/estimate?pickupLat=${from.lat}&pickupLon=${from.lon}&dropLat=${to.lat}&dropLon=${to.lon}&rideType=${rideType}`;
const trip = (from: Point, to: Point) => ({ pickupLat: from.lat, pickupLon: from.lon, dropLat: to.lat, dropLon: to.lon, rideType: 'sedan' });

/** What the sedan fare is for a trip of this length and driving time (surge 1). */
function sedanFare(km: number, minutes: number): number {
  const rate = FIRST_RULES.fares.sedan;
  const rounded = Math.round(km * 100) / 100;
  return Math.round(Math.max(rate.minimum, rate.base + Math.round(rate.perKm * rounded * 100) / 100 + rate.perMinute * Math.ceil(minutes)));
}

/** A sample's value from the Prometheus text: the line of `name` with these labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('ROUTING=graph: estimates and bookings along the roads', () => {
  let dir: string;
  let t: TestApp;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'routing-app-'));
    writeFileSync(join(dir, 'city.osm'), osmXml(streetGrid({ 1: { oneway: 'yes' } }, STEP)));
    writeFileSync(join(dir, 'roads.bin'), encodeRoadGraph((await importRoads(join(dir, 'city.osm'))).graph));
    t = await createTestApp({ routing: { provider: 'graph', file: join(dir, 'roads.bin') } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the estimate measures the trip along the streets and says the graph answered; the booking is charged the same', async () => {
    const [from, to] = [gridPoint(1, 3, STEP), gridPoint(1, 1, STEP)];
    const reply = await call(t.app, 'GET', query(from, to));
    assertOk(reply);
    const q = reply.body;
    assert.equal(q.routeProvider, 'graph');
    // Against row 1's one-way traffic: round the block, four blocks.
    const corners = [gridPoint(1, 3, STEP), gridPoint(0, 3, STEP), gridPoint(0, 1, STEP), gridPoint(1, 1, STEP)];
    const km = corners.slice(1).reduce((sum, p, i) => sum + distanceKm(corners[i].lat, corners[i].lon, p.lat, p.lon), 0);
    assert.equal(q.distanceKm, Math.round(km * 100) / 100);
    assert.equal(q.durationMinutes, Math.ceil((km / RESIDENTIAL_KMH) * 60), 'minutes at the street speed, not the city speed');
    assert.equal(q.fare, Math.round(sedanFare(km, (km / RESIDENTIAL_KMH) * 60) * q.surgeMultiplier));
    const straight = await new StraightRouter().route(from, to);
    assert.notEqual(q.distanceKm, straight.distanceKm);

    const rider = await signUp(t);
    const booked = await bookRide(t, rider, trip(from, to));
    assert.equal(booked.distanceKm, q.distanceKm);
    assert.equal(booked.fare, q.fare);
  });

  test("the rider hears the driver's minutes to the pickup along the streets, not the crow's line", async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    try {
      const pickup = gridPoint(1, 1, STEP);
      const { booked } = await acceptedRide(t, rider, driver, { ...trip(pickup, gridPoint(2, 2, STEP)), rideType: 'mini' });
      const from = gridPoint(1, 3, STEP);
      assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: from }), 'position');
      const heard = await socket.waitFor((m) => m.type === 'ride.position' && m.data.rideId === booked.id, 'the position');
      // Against row 1's one-way traffic: round the block, four blocks at the street speed.
      const corners = [from, gridPoint(0, 3, STEP), gridPoint(0, 1, STEP), pickup];
      const km = corners.slice(1).reduce((sum, p, i) => sum + distanceKm(corners[i].lat, corners[i].lon, p.lat, p.lon), 0);
      assert.equal(heard.data.etaMinutes, Math.ceil((km / RESIDENTIAL_KMH) * 60));
      assert.notEqual(heard.data.etaMinutes, Math.ceil((await new StraightRouter().route(from, pickup)).durationMinutes));
    } finally {
      await socket.close();
    }
  });

  test('a trip off the graph is quoted by straight and says so', async () => {
    const reply = await call(t.app, 'GET', query({ lat: 13.5, lon: 77.59 }, gridPoint(2, 2, STEP)));
    assertOk(reply);
    assert.equal(reply.body.routeProvider, 'straight');
    assert.equal(reply.body.distanceKm, (await new StraightRouter().route({ lat: 13.5, lon: 77.59 }, gridPoint(2, 2, STEP))).distanceKm);
  });

  test('a graph file that cannot be read stops the start with a message naming ROUTING', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a graph at all, just text');
    // The graph loads before the database opens: nothing to clean up after the refusal.
    const start = (file: string) => buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', ROUTING: `graph:${file}`, LOG_LEVEL: 'silent' }));
    await assert.rejects(start(junk), /ROUTING graph file .*junk\.bin: not a road graph/);
    await assert.rejects(start(join(dir, 'missing.bin')), /ROUTING graph file .*missing\.bin: ENOENT/);
  });
});

describe('ROUTING=osrm: estimates from an OSRM server, straight when it does not answer, counted in /metrics', () => {
  const MG_ROAD = { lat: 12.9716, lon: 77.5946 };
  const KORAMANGALA = { lat: 12.9352, lon: 77.6245 };
  let osrm: OsrmStandIn;
  let t: TestApp;
  before(async () => {
    osrm = await new OsrmStandIn().start();
    t = await createTestApp({ routing: { provider: 'osrm', url: osrm.url } });
  });
  after(async () => {
    await t.close();
    await osrm.stop();
  });

  test("the estimate and the booking use the server's road distance and time", async () => {
    const reply = await call(t.app, 'GET', query(MG_ROAD, KORAMANGALA));
    assertOk(reply);
    const metres = manhattanMetres([MG_ROAD.lon, MG_ROAD.lat], [KORAMANGALA.lon, KORAMANGALA.lat]);
    assert.equal(reply.body.routeProvider, 'osrm');
    assert.equal(reply.body.distanceKm, Math.round(metres / 10) / 100);
    assert.equal(reply.body.durationMinutes, Math.ceil(metres / STAND_IN_SPEED_MPS / 60));
    const booked = await bookRide(t, await signUp(t), trip(MG_ROAD, KORAMANGALA));
    assert.equal(booked.fare, reply.body.fare);
    assert.equal(booked.distanceKm, reply.body.distanceKm);
    assert.equal(osrm.requests.length, 1, 'the booking found the estimate’s route in the cache');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(metrics, 'ride_hailing_routing_requests_total', { service: 'route', outcome: 'ok' }), 1);
    assert.equal(sample(metrics, 'ride_hailing_routing_cache_hits_total', { service: 'route' }), 1);
    assert.equal(sample(metrics, 'ride_hailing_routing_request_duration_seconds_count', { service: 'route' }), 1);
  });

  test('a server that does not answer within 2 s: the estimate is quoted by straight, and the timeout and fallback are counted', async () => {
    osrm.mode = 'hang';
    const from = { lat: 12.95, lon: 77.6 };
    const reply = await call(t.app, 'GET', query(from, KORAMANGALA));
    assertOk(reply);
    assert.equal(reply.body.routeProvider, 'straight');
    assert.equal(reply.body.distanceKm, (await new StraightRouter().route(from, KORAMANGALA)).distanceKm);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(metrics, 'ride_hailing_routing_requests_total', { service: 'route', outcome: 'timeout' }), 1);
    assert.equal(sample(metrics, 'ride_hailing_routing_fallbacks_total', { provider: 'osrm', reason: 'timeout' }), 1);
    assert.ok(sample(metrics, 'ride_hailing_routing_request_duration_seconds_sum', { service: 'route' })! >= 1.9, 'the wait was the timeout (timers may fire a hair before 2 s by the clock read before the call)');
    osrm.mode = 'answer';
  });
});
