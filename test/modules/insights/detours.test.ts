import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { detourRatio, drivenKm, MAX_DETOUR, MAX_LAST_STRETCH_KM, MIN_DETOUR_KM, nestedCorrection, SHRINK_TRIPS } from '../../../src/modules/insights/travel-times.model.ts';
import { haversineKm, type Point } from '../../../src/platform/geo/geo.ts';
import { ROAD_FACTOR, straightDistanceKm } from '../../../src/platform/routing/straight-router.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { eventually } from '../../helpers/dispatch.ts';
import { signUp } from '../../helpers/factories.ts';
import { assertOk, pickedRide, setStatus } from '../../helpers/rides.ts';

// The `straight` router's detour factor learned per zone (decisions.md "Routing and ETAs"): a completed
// trip's kilometres along the driver's positions over the great circle, in the zone it started in,
// nested under its district and the city, the city shrunk toward ROAD_FACTOR.

const KM_PER_DEGREE = 111.2;
const east = (p: Point, km: number): Point => ({ lat: p.lat, lon: p.lon + km / (KM_PER_DEGREE * Math.cos((p.lat * Math.PI) / 180)) });
const north = (p: Point, km: number): Point => ({ lat: p.lat + km / KM_PER_DEGREE, lon: p.lon });

describe('the detour ratio of a trip', () => {
  test('short trips, impossible ratios and wild detours teach nothing', () => {
    assert.equal(detourRatio(3, MIN_DETOUR_KM * 0.9), undefined);
    assert.equal(detourRatio(1.8, 2), undefined);
    assert.equal(detourRatio(2 * MAX_DETOUR + 0.1, 2), undefined);
    assert.equal(detourRatio(2.6, 2), 1.3);
  });

  test("the driven distance counts only when positions were counted up to near the drop", () => {
    const drop = { lat: 12.9, lon: 77.6 };
    assert.equal(drivenKm(4, null, drop), undefined);
    assert.equal(drivenKm(4, north(drop, MAX_LAST_STRETCH_KM + 0.1), drop), undefined);
    const near = north(drop, 0.3);
    assert.equal(drivenKm(4, near, drop), 4 + haversineKm(near, drop));
  });
});

describe('quotes with the learned detour factor', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("a trip driven twice the great circle lengthens the straight router's distances from its zone, less from its district's other zones, least elsewhere", async () => {
    const pickup = { lat: 12.93, lon: 77.62 };
    const drop = north(pickup, 2);
    // Round three sides of a rectangle: 1 km east, 2 km north, 1 km west, a position every 250 m.
    const path: Point[] = [];
    for (let km = 0.25; km <= 1; km += 0.25) path.push(east(pickup, km));
    for (let km = 0.25; km <= 2; km += 0.25) path.push(north(east(pickup, 1), km));
    for (let km = 0.75; km >= 0; km -= 0.25) path.push(east(drop, km));
    const driven = path.reduce((sum, point, i) => sum + haversineKm(i === 0 ? pickup : path[i - 1], point), 0);
    const ratio = driven / haversineKm(pickup, drop);
    assert.ok(ratio > 1.9 && ratio < 2.1, `${ratio}`);

    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, driver, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: drop.lat, dropLon: drop.lon });
    for (const point of path) assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: point }), 'position');
    t.clock.advance(12 * 60_000);
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');

    const quotedKm = async (from: Point, to: Point) => {
      const reply = await call(t.app, 'GET', `/rides/estimate?pickupLat=${from.lat}&pickupLon=${from.lon}&dropLat=${to.lat}&dropLon=${to.lon}`);
      assertOk(reply, 'estimate');
      return reply.body.distanceKm as number;
    };
    const one = { trips: 1, ratioSum: ratio };
    const factorOf = (cells: number) => nestedCorrection(Array(cells).fill(one), SHRINK_TRIPS, ROAD_FACTOR);
    const elsewhere = { lat: 13.3, lon: 77.2 };
    const trip = (from: Point) => [from, east(from, 3)] as const;
    const expected = (from: Point, cells: number) => straightDistanceKm(...trip(from), () => factorOf(cells));
    await eventually(async () => ((await quotedKm(...trip(pickup))) === expected(pickup, 3) ? true : undefined), `the zone's learned factor ${factorOf(3)}`);
    assert.equal(await quotedKm(...trip(north(pickup, 1.5))), expected(north(pickup, 1.5), 2), "another zone of the district: the district's factor");
    assert.equal(await quotedKm(...trip(elsewhere)), expected(elsewhere, 1), "another district: the city's factor");
    assert.ok(factorOf(3) > factorOf(2) && factorOf(2) > factorOf(1) && factorOf(1) > ROAD_FACTOR, 'one trip moves each level less the coarser it is');
  });
});
