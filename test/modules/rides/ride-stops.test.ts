import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, northOf, setStatus, TRIP } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';
import type { OperatorApp } from '../admin/operator.ts';
import { receiptFigures, receiptMismatches } from '../../../src/modules/rides/ride-receipt.ts';
import { lateEveningApp, MINI } from './late-evening.ts';

// Stops between pickup and drop (decisions.md "Scheduled rides, stops and changes"): the quote and
// the booking route through them and add perStop each; every view lists them in order. The driver
// marks each reached, in order; waiting there beyond the free minutes is charged until the ride leaves.

const MINUTE = 60_000;

/** Two stops on the way from TRIP's pickup to its drop, a little off the straight line. */
const STOPS = [
  { lat: 12.962, lon: 77.61, place: 'Richmond Town pharmacy' },
  { lat: 12.948, lon: 77.612, place: 'Koramangala school gate' },
];
const ESTIMATE = `/rides/estimate?rideType=mini&pickupLat=${TRIP.pickupLat}&pickupLon=${TRIP.pickupLon}&dropLat=${TRIP.dropLat}&dropLon=${TRIP.dropLon}`;
const asQuery = (stops: Array<{ lat: number; lon: number }>) => stops.map(({ lat, lon }) => `${lat},${lon}`).join(';');

describe('stops at booking', () => {
  let op: OperatorApp;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    ({ op, rider, driver } = await lateEveningApp());
  });
  after(() => op.t.close());

  const book = (body: Record<string, unknown>) => call(op.t.app, 'POST', '/rides/book', { token: rider.token, body: { ...TRIP, rideType: 'mini', ...body } });

  test('the estimate and the booking route through the stops and add perStop for each; the booking is charged the estimate', async () => {
    const { t } = op;
    const direct = await call(t.app, 'GET', ESTIMATE);
    const via = await call(t.app, 'GET', `${ESTIMATE}&stops=${asQuery(STOPS)}`);
    assertOk(direct);
    assertOk(via);
    assert.deepEqual([direct.body.stops, direct.body.stopsFare], [0, 0]);
    assert.deepEqual([via.body.stops, via.body.stopsFare], [2, 2 * MINI.perStop]);
    assert.ok(via.body.distanceKm > direct.body.distanceKm, `through the stops ${via.body.distanceKm} km, direct ${direct.body.distanceKm} km`);
    const part = Math.round(Math.max(MINI.minimum, MINI.base + Math.round(MINI.perKm * Math.max(0, via.body.distanceKm - MINI.baseKm) * 100) / 100 + MINI.perMinute * via.body.durationMinutes) * via.body.surgeMultiplier * via.body.nightMultiplier);
    assert.equal(via.body.fare, part + 2 * MINI.perStop);

    const booked = await book({ stops: STOPS });
    assertOk(booked);
    assert.deepEqual([booked.body.fare, booked.body.distanceKm, booked.body.durationMinutes], [via.body.fare, via.body.distanceKm, via.body.durationMinutes]);
    assert.deepEqual(booked.body.stops, STOPS.map((stop) => ({ ...stop, reachedAt: null, leftAt: null })));

    // Every view lists them in order: drivers browsing requests, the driver once accepted, the rider, operators.
    const requested = await call(t.app, 'GET', '/rides/requested?limit=200');
    assert.deepEqual(requested.body.find((ride: { id: number }) => ride.id === booked.body.id).stops.map((stop: { place: string }) => stop.place), STOPS.map((stop) => stop.place));
    const accepted = await accept(t, driver, booked.body.id);
    assertOk(accepted);
    assert.equal(accepted.body.stops.length, 2);
    for (const token of [rider.token, driver.token]) {
      const seen = await call(t.app, 'GET', `/rides/status/${booked.body.id}`, { token });
      assert.deepEqual(seen.body.stops.map((stop: { place: string }) => stop.place), STOPS.map((stop) => stop.place));
    }
    const operator = await call(t.app, 'GET', `/admin/rides/${booked.body.id}`, { token: op.admin.token });
    assert.deepEqual(operator.body.stops.map((stop: { lat: number }) => stop.lat), STOPS.map((stop) => stop.lat));
    // Nobody else learns where the rider stops.
    const outsider = await call(t.app, 'GET', `/rides/status/${booked.body.id}`);
    assert.equal(outsider.body.stops, undefined);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.body.id}`, { token: driver.token, body: { reason: 'Vehicle breakdown' } }));
  });

  test('more than 3 stops, a stop out of range or stops without both points are 400', async () => {
    const { t } = op;
    const four = [...STOPS, ...STOPS];
    assertError(await book({ stops: four }), 400, 'VALIDATION_FAILED');
    assertError(await book({ stops: [{ lat: 91, lon: 77.6, place: 'nowhere' }] }), 400, 'VALIDATION_FAILED');
    assertError(await book({ stops: [{ lat: 12.96 }] }), 400, 'VALIDATION_FAILED');
    assertError(await book({ dropLat: null, dropLon: null, stops: STOPS }), 400, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'GET', `${ESTIMATE}&stops=${asQuery(four)}`), 400, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'GET', `${ESTIMATE}&stops=95,77.6`), 400, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'GET', `${ESTIMATE}&stops=somewhere`), 400, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'GET', `/rides/estimate?distanceKm=5&stops=${asQuery(STOPS)}`), 400, 'VALIDATION_FAILED');
  });

  test('the fare at completion keeps perStop for each stop, named in the breakdown', async () => {
    const { t } = op;
    const booked = (await book({ stops: STOPS.slice(0, 1) })).body;
    assertOk(await accept(t, driver, booked.id));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    const done = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
    assertOk(done);
    const b = done.body.fareBreakdown;
    assert.deepEqual([b.stops, b.stopsFare], [1, MINI.perStop]);
    assert.equal(done.body.fare, b.distanceAndTimeFare + b.stopsFare + b.waitingFare + b.tollsFare + b.parkingFare);
  });
});

describe('reaching stops', () => {
  let op: OperatorApp;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    ({ op, rider, driver } = await lateEveningApp());
  });
  after(() => op.t.close());

  const arrived = (rideId: number, index: number, user = driver) => call(op.t.app, 'POST', `/rides/${rideId}/stops/${index}/arrived`, { token: user.token });
  const report = (rideId: number, point: { lat: number; lon: number }) => call(op.t.app, 'POST', `/rides/location/${rideId}`, { token: driver.token, body: point });

  test('a ride with two stops is priced through them and charged the waiting at one beyond the free minutes; the rider hears each mark at once', async () => {
    const { t } = op;
    const riders = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    const booked = (await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { ...TRIP, rideType: 'mini', stops: STOPS } })).body;
    assertOk(await accept(t, driver, booked.id));
    assertError(await arrived(booked.id, 0), 409, 'RIDE_NOT_PICKED');
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    assertError(await arrived(booked.id, 1), 409, 'STOP_OUT_OF_ORDER');

    // The first stop: 2 minutes there, left by a position 500 m on: within the free minutes.
    const first = await arrived(booked.id, 0);
    assertOk(first);
    const reachedAt = new Date(t.clock.now()).toISOString();
    assert.deepEqual([first.body.stops[0].reachedAt, first.body.stops[0].leftAt, first.body.stops[1].reachedAt], [reachedAt, null, null]);
    await riders.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === booked.id && m.data.stops[0].reachedAt === reachedAt, 'the mark at the rider');
    t.clock.advance(MINUTE);
    const again = await arrived(booked.id, 0);
    assert.equal(again.body.stops[0].reachedAt, reachedAt, 'marking again changes nothing');
    assertOk(await report(booked.id, northOf(STOPS[0], 100)));
    assert.equal((await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token })).body.stops[0].leftAt, null, 'still at the stop');
    t.clock.advance(MINUTE);
    assertOk(await report(booked.id, northOf(STOPS[0], -500)));
    const left = await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token });
    assert.equal(left.body.stops[0].leftAt, new Date(t.clock.now()).toISOString(), 'a position 500 m away leaves the stop');

    // The second stop: 7.5 minutes there until the drop: 3 free, 5 started minutes charged.
    t.clock.advance(4 * MINUTE);
    assertOk(await arrived(booked.id, 1));
    t.clock.advance(7.5 * MINUTE);
    const done = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
    assertOk(done);
    const b = done.body.fareBreakdown;
    assert.deepEqual(
      { stops: b.stops, stopsFare: b.stopsFare, stopWaitingMinutes: b.stopWaitingMinutes, waitingMinutes: b.waitingMinutes, waitingFare: b.waitingFare },
      { stops: 2, stopsFare: 2 * MINI.perStop, stopWaitingMinutes: 5, waitingMinutes: 5, waitingFare: 5 * MINI.waiting.perMinute },
    );
    assert.equal(done.body.fare, b.distanceAndTimeFare + b.stopsFare + b.waitingFare + b.tollsFare + b.parkingFare);
    assert.equal(done.body.stops[1].leftAt, done.body.completedAt, 'the drop leaves the last stop');
    // The receipt charges the same stops and waiting, and recomputes to the fare from the public version.
    const { receipt } = (await call(t.app, 'GET', `/rides/${booked.id}/receipt`, { token: rider.token })).body;
    assert.deepEqual([receipt.fare, receipt.inputs.stops, receipt.inputs.waitingMinutes], [done.body.fare, 2, 5]);
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, (await call(t.app, 'GET', `/pricing/versions/${receipt.pricingVersion}`)).body)), []);
    await riders.socket.close();
  });

  test("only the ride's driver marks its stops, and only the ones it has", async () => {
    const { t } = op;
    const booked = (await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { ...TRIP, rideType: 'mini', stops: STOPS.slice(0, 1) } })).body;
    assertOk(await accept(t, driver, booked.id));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    const otherDriver = await signUp(t, { role: 'DRIVER' });
    assertError(await arrived(booked.id, 0, otherDriver), 403);
    assertError(await arrived(booked.id, 0, rider), 403);
    assertError(await arrived(booked.id, 1), 404, 'STOP_NOT_FOUND');
    assertError(await arrived(booked.id, 3), 400, 'VALIDATION_FAILED');
    assertError(await arrived(999_999, 0), 404);
    assertError(await call(t.app, 'POST', `/rides/${booked.id}/stops/0/arrived`), 401);
    assertOk(await arrived(booked.id, 0));
  });
});
