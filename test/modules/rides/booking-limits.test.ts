import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { RIDE_TYPES } from '../../../src/platform/vocabulary.ts';
import { call } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { assertError, assertOk, tripNorth } from '../../helpers/rides.ts';
import { operatorApp, type OperatorApp } from '../admin/operator.ts';

// decisions.md "Realtime and input limits (second review)": a booking is at most MAX_RIDE_KM from
// pickup to drop by road (400 RIDE_TOO_LONG), and its fare fits what one online payment may be
// (₹500,000, far inside the database's integer range), whatever prices are in force.

/** The road factor the quotes use: a trip of `road` km by road is road / 1.3 km straight north. */
const straightFor = (roadKm: number) => roadKm / 1.3;

describe('bounded bookings', () => {
  let op: OperatorApp;
  let rider: TestUser;
  before(async () => {
    op = await operatorApp({ maxRideKm: 300 });
    rider = await signUp(op.t);
  });
  after(() => op.t.close());

  const book = (body: Record<string, unknown>) => call(op.t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'A', dropLocation: 'B', ...body } });
  const open = async () => (await call(op.t.app, 'GET', '/rides/active', { token: rider.token })).body.length as number;

  test('a booking to the other side of the Earth is 400 RIDE_TOO_LONG, and nothing is booked', async () => {
    const before = await open();
    const newYork = { pickupLat: 12.9716, pickupLon: 77.5946, dropLat: 40.7128, dropLon: -74.006 };
    for (const rideType of RIDE_TYPES) assertError(await book({ ...newYork, rideType }), 400, 'RIDE_TOO_LONG');
    assertError(await book(tripNorth(straightFor(301))), 400, 'RIDE_TOO_LONG');
    assert.equal(await open(), before);
    assertOk(await book(tripNorth(straightFor(299))), 'a ride just within MAX_RIDE_KM');
  });

  test('with the highest prices the rules allow, a fare over what one payment may be is 400 FARE_TOO_HIGH, never a 5xx; the rest still book', async () => {
    const { t, admin } = op;
    const most = { base: 100_000, perKm: 100_000, perMinute: 100_000, minimum: 100_000 };
    const highest = {
      ...FIRST_RULES,
      fares: Object.fromEntries(RIDE_TYPES.map((type) => [type, { ...FIRST_RULES.fares[type], ...most }])),
      surgeCap: 5,
      cancellation: { ACCEPTED: { share: 1, min: 100_000, max: 100_000 }, PICKED: { share: 1, min: 100_000, max: 100_000 } },
    };
    assertOk(await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: highest }), 'highest prices');
    for (const km of [2, 150, 299]) assertError(await book({ rideType: 'suv', ...tripNorth(straightFor(km)) }), 400, 'FARE_TOO_HIGH');
    // No coordinates: the minimum fare, at most ₹100,000 × the surge cap of 5 — just what one payment may be.
    const cheapest = await book({ rideType: 'mini' });
    assertOk(cheapest, 'the minimum fare');
    assert.ok(cheapest.body.fare <= 500_000, `fare ${cheapest.body.fare}`);
    const paid = await call(t.app, 'GET', '/rides/history', { token: rider.token });
    assertOk(paid, 'history still reads');
  });
});

describe('MAX_RIDE_KM from configuration', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ maxRideKm: 20 });
  });
  after(() => op.t.close());

  test('a city may keep bookings shorter', async () => {
    const rider = await signUp(op.t);
    const book = (km: number) => call(op.t.app, 'POST', '/rides/book', { token: rider.token, body: tripNorth(straightFor(km)) });
    assertOk(await book(19), '19 km');
    const refused = await book(21);
    assertError(refused, 400, 'RIDE_TOO_LONG');
    assert.match(refused.body.message, /at most 20 km/);
  });
});
