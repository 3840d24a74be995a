import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { correction, hourOfWeek, MAX_RATIO, nestedCorrection, SHRINK_TRIPS, TravelTimeCells, tripRatio } from '../../../src/modules/insights/travel-times.model.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { eventually } from '../../helpers/dispatch.ts';
import { signUp } from '../../helpers/factories.ts';
import { assertOk, driverWithVehicle, northOf, pickedRide, setStatus } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// Travel times that learn: completed trips correct the router's minutes per (pickup zone, drop zone,
// hour of week), shrunk toward no correction while a cell has few trips (docs/routing.md).

const WEEK_MS = 7 * 24 * 3_600_000;

describe('the learned correction', () => {
  test('a cell without trips leaves the router as it is', () => {
    assert.equal(correction(undefined), 1);
    assert.equal(new TravelTimeCells().correction(['*@0', 'd1>d2@0', 'a>b@0']), 1);
  });

  test('converges toward the observed ratio as trips come', () => {
    const cells = new TravelTimeCells();
    const seen: number[] = [];
    for (let trip = 1; trip <= 200; trip++) {
      cells.observe(['a>b@9'], 1.5);
      seen.push(cells.correction(['a>b@9']));
    }
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1] && seen[i] < 1.5, `trip ${i + 1}: ${seen[i]}`);
    assert.equal(seen[SHRINK_TRIPS - 1], 1.25, `after k = ${SHRINK_TRIPS} trips, halfway: 1 + n/(n+k) × (ratio − 1)`);
    assert.ok(Math.abs(seen.at(-1)! - 1.5) < 0.02, `after 200 trips ${seen.at(-1)}`);
  });

  test('a zone pair with few trips stays near the router, however far off they were, while its city and district say the router is right', () => {
    assert.ok(Math.abs(correction({ trips: 1, ratioSum: 2 }) - (1 + 1 / (1 + SHRINK_TRIPS))) < 1e-12, 'one trip at twice the time: a sixth of the way');
    assert.ok(correction({ trips: 2, ratioSum: 1 }) > 0.8, 'two trips at half the time');
    const cells = new TravelTimeCells();
    for (let trip = 0; trip < 500; trip++) cells.observe(['*@9', 'd1>d2@9', `z${trip % 50}>z@9`], 1);
    cells.observe(['*@9', 'd1>d2@9', 'a>b@9'], 2);
    const few = cells.correction(['*@9', 'd1>d2@9', 'a>b@9']);
    assert.ok(few > 1 && few < 1.17, `one trip at 2×: ${few}`);
  });

  test('a zone pair without trips of its own follows its district and city in that hour', () => {
    const cells = new TravelTimeCells();
    for (let trip = 0; trip < 1000; trip++) cells.observe(['*@8', `d${trip % 3}>d@8`, `z${trip % 90}>z@8`], 1.6);
    const unseen = cells.correction(['*@8', 'd0>d@8', 'new>pair@8']);
    assert.ok(Math.abs(unseen - 1.6) < 0.01, `${unseen}`);
    assert.equal(cells.correction(['*@20', 'd0>d@20', 'new>pair@20']), 1, 'another hour has learned nothing');
    assert.equal(nestedCorrection([{ trips: 1, ratioSum: 2 }, undefined, undefined]), correction({ trips: 1, ratioSum: 2 }));
  });

  test('a trip of under a minute, or beyond 4× either way, is not a driving time to learn from', () => {
    assert.equal(tripRatio(0.5, 10), undefined);
    assert.equal(tripRatio(41, 10), undefined);
    assert.equal(tripRatio(2, 10), undefined);
    assert.equal(tripRatio(20, 10), 2);
    assert.equal(tripRatio(10 * MAX_RATIO, 10), MAX_RATIO);
  });

  test('hours of week are local, from Monday 00:00 (0) to Sunday 23:00 (167)', () => {
    assert.equal(hourOfWeek(Date.parse('2026-11-30T00:30:00+05:30'), 'Asia/Kolkata'), 0);
    assert.equal(hourOfWeek(Date.parse('2026-11-29T23:59:00+05:30'), 'Asia/Kolkata'), 167);
    assert.equal(hourOfWeek(Date.parse('2026-11-25T09:10:00+05:30'), 'Asia/Kolkata'), 2 * 24 + 9);
    assert.equal(hourOfWeek(Date.parse('2026-11-25T09:10:00Z'), 'UTC'), 2 * 24 + 9);
  });
});

describe('quotes with learned travel times', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("a completed trip that took twice the router's time lengthens the next quote of its zones in that hour of the week; the reverse trip, and another hour, are quoted as the router says", async () => {
    const pickup = { lat: 12.9, lon: 77.6 };
    const drop = { lat: 12.95, lon: 77.6 };
    const trip = { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: drop.lat, dropLon: drop.lon };
    const estimate = async (from: typeof pickup, to: typeof pickup) => {
      const reply = await call(t.app, 'GET', `/rides/estimate?pickupLat=${from.lat}&pickupLon=${from.lon}&dropLat=${to.lat}&dropLon=${to.lon}`);
      assertOk(reply, 'estimate');
      return reply.body.durationMinutes as number;
    };
    const routerMinutes = new StraightRouter().routeNow(pickup, drop).durationMinutes;
    assert.equal(await estimate(pickup, drop), Math.ceil(routerMinutes), 'before any trip: the router');

    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, driver, trip);
    const driven = 2 * routerMinutes * 60_000;
    t.clock.advance(driven);
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');
    // The same hour of the next week: the cell the trip taught.
    t.clock.advance(WEEK_MS - driven);
    // Its zone pair, district pair and the city in that hour each hold the one trip (at twice the time).
    const one = { trips: 1, ratioSum: 2 };
    const learned = Math.ceil(routerMinutes * nestedCorrection([one, one, one]));
    await eventually(async () => ((await estimate(pickup, drop)) === learned ? true : undefined), `the quote at ${learned} minutes`);
    assert.equal(await estimate(drop, pickup), Math.ceil(routerMinutes * nestedCorrection([one])), 'the reverse trip: only the city in that hour knows anything');
    t.clock.advance(3 * 3_600_000);
    assert.equal(await estimate(pickup, drop), Math.ceil(routerMinutes), 'three hours later nothing was learned');
  });

  test('the pickup ETA of a quote is corrected by what trips took in that hour; three hours later, with nothing learned, it is the way by road', async () => {
    const pickup = { lat: 12.8, lon: 77.7 };
    const drop = { lat: 12.85, lon: 77.7 };
    const trip = { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: drop.lat, dropLon: drop.lon };
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, driver, trip);
    const driven = 3 * new StraightRouter().routeNow(pickup, drop).durationMinutes * 60_000; // three times the router's time
    t.clock.advance(driven);
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');
    t.clock.advance(WEEK_MS - driven);
    const eta = async () => {
      // A sedan 6 km from the pickup, reporting now.
      const near = await driverWithVehicle(t, 'sedan');
      assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: near.token, body: northOf(pickup, -6000) }), 'position');
      const reply = await call(t.app, 'GET', `/rides/estimate?pickupLat=${pickup.lat}&pickupLon=${pickup.lon}&dropLat=${drop.lat}&dropLon=${drop.lon}&rideType=sedan`);
      assertOk(reply, 'estimate');
      assert.equal(reply.body.driverNearby, true);
      return reply.body.etaMaxMinutes as number;
    };
    // Once the trip is learned, its own quote is longer than the router's.
    const routerMinutes = Math.ceil(new StraightRouter().routeNow(pickup, drop).durationMinutes);
    await eventually(async () => {
      const reply = await call(t.app, 'GET', `/rides/estimate?pickupLat=${pickup.lat}&pickupLon=${pickup.lon}&dropLat=${drop.lat}&dropLon=${drop.lon}`);
      return reply.body.durationMinutes > routerMinutes ? true : undefined;
    }, 'the trip learned');
    const learned = await eta();
    t.clock.advance(3 * 3_600_000);
    const plain = await eta();
    assert.ok(learned > plain, `learned ${learned} > plain ${plain}`);
  });
  test("the rider's live ETA during a trip is in the same learned minutes as its quote", async () => {
    const pickup = { lat: 12.7, lon: 77.5 };
    const drop = { lat: 12.75, lon: 77.5 };
    const trip = { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: drop.lat, dropLon: drop.lon };
    const routerMinutes = new StraightRouter().routeNow(pickup, drop).durationMinutes;
    const firstDriver = await signUp(t, { role: 'DRIVER' });
    const first = await pickedRide(t, await signUp(t, { role: 'RIDER' }), firstDriver, trip);
    const driven = 2 * routerMinutes * 60_000;
    t.clock.advance(driven);
    assertOk(await setStatus(t, firstDriver, first.booked.id, { status: 'COMPLETED', otp: first.booked.endOtp }), 'complete');
    t.clock.advance(WEEK_MS - driven);
    const one = { trips: 1, ratioSum: 2 };
    const learned = Math.ceil(routerMinutes * nestedCorrection([one, one, one]));
    await eventually(async () => {
      const reply = await call(t.app, 'GET', `/rides/estimate?pickupLat=${pickup.lat}&pickupLon=${pickup.lon}&dropLat=${drop.lat}&dropLon=${drop.lon}`);
      return reply.body.durationMinutes === learned ? true : undefined;
    }, 'the trip learned');

    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    try {
      const { booked } = await pickedRide(t, rider, driver, trip);
      assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: pickup }), 'position');
      const heard = await socket.waitFor((m) => m.type === 'ride.position' && m.data.rideId === booked.id, 'the position');
      assert.equal(heard.data.etaMinutes, learned);
    } finally {
      await socket.close();
    }
  });
});
