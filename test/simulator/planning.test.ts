import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { offerAnswer, riderPlan } from '../../simulator/behaviour.ts';
import { cityNames, loadCity } from '../../simulator/cities.ts';
import { planBookings, planDrivers, ridesPerDriverHour } from '../../simulator/demand.ts';
import { scaledDispatch, scaledSchedule } from '../../simulator/embedded.ts';
import { haversineKm, inBox } from '../../simulator/geo.ts';
import { OsrmRouter, StraightRouter } from '../../simulator/routing.ts';

const bengaluru = loadCity('bengaluru');
const day = (seed: number, overrides = {}) => planBookings({ seed, city: bengaluru, startMinute: 0, minutes: 24 * 60, riders: 200, drivers: 50, load: 1, ...overrides });

describe('the simulated day', () => {
  test('one seed plans the same requests and drivers every time; another seed plans others', () => {
    assert.deepEqual(day(1), day(1));
    assert.deepEqual(planDrivers({ seed: 1, city: bengaluru, drivers: 30, startMinute: 480 }), planDrivers({ seed: 1, city: bengaluru, drivers: 30, startMinute: 480 }));
    assert.notDeepEqual(day(2).slice(0, 10), day(1).slice(0, 10));
  });

  test('requests follow the day: morning and evening peaks, a quiet night, all inside the city', () => {
    const bookings = day(3);
    const inHour = (hour: number) => bookings.filter((b) => Math.floor(b.at / 3_600_000) === hour).length;
    assert.ok(inHour(8) > 3 * inHour(3), `08:00 ${inHour(8)} vs 03:00 ${inHour(3)}`);
    assert.ok(inHour(18) > 3 * inHour(3), `18:00 ${inHour(18)} vs 03:00 ${inHour(3)}`);
    // --load 1: at the busiest hour, about what 50 drivers can serve.
    const capacity = 50 * ridesPerDriverHour(bengaluru);
    assert.ok(inHour(8) > 0.7 * capacity && inHour(8) < 1.2 * capacity, `08:00 ${inHour(8)} for a capacity of ${capacity}`);
    for (const b of bookings) {
      assert.ok(inBox(b.pickup.point, bengaluru.box) && inBox(b.drop.point, bengaluru.box));
      assert.ok(haversineKm(b.pickup.point, b.drop.point) <= 20);
    }
  });

  test('about one booking in ten has one or two stops, on the way from pickup to drop', () => {
    const bookings = day(4);
    const withStops = bookings.filter((b) => b.stops.length > 0);
    const share = withStops.length / bookings.length;
    assert.ok(share > 0.05 && share < 0.15, `${withStops.length} of ${bookings.length} with stops`);
    for (const b of withStops) {
      assert.ok(b.stops.length <= 2);
      const direct = haversineKm(b.pickup.point, b.drop.point);
      for (const stop of b.stops) assert.ok(haversineKm(b.pickup.point, stop) + haversineKm(stop, b.drop.point) <= direct + 1.2, 'a stop is near the way');
    }
  });

  test('about one booking in sixteen is booked ahead, 45 minutes to 3 hours ahead', () => {
    const bookings = day(4);
    const ahead = bookings.flatMap((b) => (b.plan.aheadMs === null ? [] : [b.plan.aheadMs]));
    const share = ahead.length / bookings.length;
    assert.ok(share > 0.03 && share < 0.09, `${ahead.length} of ${bookings.length} booked ahead`);
    for (const ms of ahead) assert.ok(ms >= 45 * 60_000 && ms <= 3 * 3_600_000, `${ms} ms ahead`);
  });

  test('in the morning riders travel towards jobs, in the evening back home', () => {
    const bookings = day(4, { load: 3 });
    const whitefield = bengaluru.centres.find((c) => c.name === 'Whitefield')!;
    const near = (point: { lat: number; lon: number }) => haversineKm(point, whitefield) < 3;
    const between = (from: number, to: number) => bookings.filter((b) => b.at >= from * 3_600_000 && b.at < to * 3_600_000);
    const morning = between(7, 11);
    const evening = between(17, 21);
    const share = (list: typeof bookings, pick: (b: (typeof bookings)[number]) => boolean) => list.filter(pick).length / list.length;
    // Whitefield has more jobs than homes: more trips end there in the morning, more start there in the evening.
    assert.ok(share(morning, (b) => near(b.drop.point)) > share(morning, (b) => near(b.pickup.point)));
    assert.ok(share(evening, (b) => near(b.pickup.point)) > share(evening, (b) => near(b.drop.point)));
  });

  test('a driver answers an offer the same way whenever it arrives: most accept, some decline, some let it expire', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => [i % 40, Math.floor(i / 40)] as const);
    const forwards = keys.map(([driver, booking]) => offerAnswer(9, driver, booking));
    const backwards = [...keys].reverse().map(([driver, booking]) => offerAnswer(9, driver, booking)).reverse();
    assert.deepEqual(forwards, backwards);
    const share = (answer: string) => forwards.filter((a) => a.answer === answer).length / forwards.length;
    assert.ok(share('accept') > 0.75 && share('decline') > 0.05 && share('ignore') > 0.04, JSON.stringify({ accept: share('accept'), decline: share('decline') }));
    assert.deepEqual(riderPlan(9, 17), riderPlan(9, 17));
  });
});

describe('cities and roads', () => {
  test('Bengaluru and other Indian cities ship as data; a faulty city file is refused with the reason', () => {
    assert.ok(cityNames().includes('bengaluru') && cityNames().length >= 2, cityNames().join());
    for (const name of cityNames()) assert.ok(loadCity(name).centres.length >= 3, name);
    const folder = mkdtempSync(join(tmpdir(), 'city-'));
    try {
      const file = join(folder, 'bad.json');
      writeFileSync(file, JSON.stringify({ ...bengaluru, speedKmh: 0 }));
      assert.throws(() => loadCity(file), /bad\.json: \/speedKmh/);
      assert.throws(() => loadCity('atlantis'), /no city "atlantis"/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("with OSRM, cars follow its roads and its distance; when it fails they drive straight, and it is said once", async () => {
    const from = { lat: 12.97, lon: 77.59 };
    const to = { lat: 12.98, lon: 77.6 };
    let failing = false;
    const requests: string[] = [];
    const osrm = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (failing) return void response.writeHead(500).end('{}');
      const body = { code: 'Ok', routes: [{ distance: 2500, geometry: { coordinates: [[77.59, 12.97], [77.59, 12.98], [77.6, 12.98]] } }] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    osrm.listen(0, '127.0.0.1');
    await once(osrm, 'listening');
    const warnings: string[] = [];
    const router = new OsrmRouter(`http://127.0.0.1:${(osrm.address() as AddressInfo).port}`, new StraightRouter(1.3), (text) => warnings.push(text));
    try {
      const road = await router.route(from, to);
      assert.equal(road.km, 2.5);
      assert.match(requests[0], /^\/route\/v1\/driving\/77\.59,12\.97;77\.6,12\.98\?overview=full&geometries=geojson$/);
      // Half-way along the road is at its corner's latitude, not on the diagonal.
      assert.ok(Math.abs(road.line.at(0.5).lat - 12.98) < 0.002, JSON.stringify(road.line.at(0.5)));

      failing = true;
      const straight = [await router.route(from, to), await router.route(from, to)];
      assert.equal(straight[0].line.points.length, 2);
      assert.equal(straight[0].km, haversineKm(from, to) * 1.3);
      assert.equal(warnings.length, 1);
      assert.equal(router.failures, 2);
    } finally {
      osrm.close();
    }
  });

  test("an embedded service's dispatch timers are the defaults in simulated time", () => {
    assert.deepEqual(scaledDispatch(1), { DISPATCH_BATCH_MS: '2000', DISPATCH_OFFER_TTL_SECONDS: '15', DISPATCH_MAX_SECONDS: '120' });
    assert.deepEqual(scaledDispatch(10), { DISPATCH_BATCH_MS: '200', DISPATCH_OFFER_TTL_SECONDS: '2', DISPATCH_MAX_SECONDS: '12' });
    // Never below what the service accepts.
    assert.deepEqual(scaledDispatch(600), { DISPATCH_BATCH_MS: '50', DISPATCH_OFFER_TTL_SECONDS: '1', DISPATCH_MAX_SECONDS: '1' });
  });

  test("an embedded service's booking-ahead leads are the defaults in simulated time, never refusing the city's own", () => {
    assert.deepEqual(scaledSchedule(1), { SCHEDULE_MIN_LEAD_MINUTES: '30', SCHEDULE_DISPATCH_LEAD_MINUTES: '20' });
    assert.deepEqual(scaledSchedule(20), { SCHEDULE_MIN_LEAD_MINUTES: '1', SCHEDULE_DISPATCH_LEAD_MINUTES: '1' });
    assert.deepEqual(scaledSchedule(120), { SCHEDULE_MIN_LEAD_MINUTES: '0', SCHEDULE_DISPATCH_LEAD_MINUTES: '1' });
  });
});
