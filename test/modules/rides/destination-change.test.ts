import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide, northOf, setStatus, TRIP } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';
import { receiptFigures, receiptMismatches } from '../../../src/modules/rides/ride-receipt.ts';

// The rider changes the destination while ACCEPTED or PICKED (decisions.md "Scheduled rides, stops
// and changes"): a quote that changes nothing, applied once when confirmed; the driver hears at once;
// the fare at completion follows the confirmed route and says why.

const MINUTE = 60_000;
const DROP = { lat: TRIP.dropLat, lon: TRIP.dropLon };
/** Three kilometres past the booked drop. */
const FURTHER = { ...northOf(DROP, -3000), place: 'Silk Board bus stop' };

describe('changing the destination', () => {
  let t: TestApp;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    t = await createTestApp();
    rider = await signUp(t, { role: 'RIDER' });
    driver = await signUp(t, { role: 'DRIVER' });
  });
  after(() => t.close());

  const quote = (rideId: number, body: unknown = FURTHER, user = rider) => call(t.app, 'POST', `/rides/${rideId}/destination`, { token: user.token, body });
  const confirm = (rideId: number, quoteId: string, user = rider) => call(t.app, 'POST', `/rides/${rideId}/destination/confirm`, { token: user.token, body: { quoteId } });
  const seen = async (rideId: number, user = rider) => (await call(t.app, 'GET', `/rides/status/${rideId}`, { token: user.token })).body;

  test('a quote changes nothing; confirming it applies it once, the driver hears at once, and the fare follows the new route with the reason', async () => {
    const drivers = await TestSocket.connect(await realtimeUrl(t.app), driver.token);
    const booked = await bookRide(t, rider, { dropLocation: 'Koramangala' });
    assertOk(await accept(t, driver, booked.id));

    const quoted = await quote(booked.id);
    assertOk(quoted);
    const q = quoted.body;
    assert.deepEqual([q.rideId, q.dropLat, q.dropLon, q.dropLocation, q.previousFare, q.currency], [booked.id, FURTHER.lat, FURTHER.lon, FURTHER.place, booked.fare, 'INR']);
    assert.ok(q.distanceKm > booked.distanceKm && q.fare > booked.fare, `new ${q.distanceKm} km ₹${q.fare}, booked ${booked.distanceKm} km ₹${booked.fare}`);
    assert.equal(q.expiresAt, new Date(t.clock.now() + 5 * MINUTE).toISOString());
    const unchanged = await seen(booked.id);
    assert.deepEqual([unchanged.dropLat, unchanged.dropLocation, unchanged.fare, unchanged.destinationChanges], [TRIP.dropLat, 'Koramangala', booked.fare, []]);

    const confirmed = await confirm(booked.id, q.quoteId);
    assertOk(confirmed);
    assert.deepEqual([confirmed.body.dropLat, confirmed.body.dropLon, confirmed.body.dropLocation, confirmed.body.fare, confirmed.body.distanceKm], [FURTHER.lat, FURTHER.lon, FURTHER.place, q.fare, q.distanceKm]);
    await drivers.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === booked.id && m.data.dropLat === FURTHER.lat, 'the new destination at the driver');
    assert.equal((await seen(booked.id, driver)).dropLocation, FURTHER.place);
    assertError(await confirm(booked.id, q.quoteId), 409, 'QUOTE_USED');

    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    t.clock.advance(q.durationMinutes * MINUTE);
    const done = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
    assertOk(done);
    const b = done.body.fareBreakdown;
    assert.equal(b.recomputed, true);
    assert.match(b.recomputeReason, /changed the destination to Silk Board bus stop: the route confirmed \(.* km, \d+ min: ₹\d+\) replaces the booking's/);
    assert.deepEqual([b.distanceKm, b.durationMinutes, b.distanceAndTimeFare], [q.distanceKm, q.durationMinutes, q.fare]);
    assert.deepEqual([done.body.fare, done.body.upfrontFare, b.upfrontFare], [q.fare, booked.fare, booked.fare]);
    assert.equal(done.body.destinationChanges.length, 1);
    const { receipt } = (await call(t.app, 'GET', `/rides/${booked.id}/receipt`, { token: rider.token })).body;
    assert.deepEqual([receipt.fare, receipt.inputs.distanceKm], [q.fare, q.distanceKm]);
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, (await call(t.app, 'GET', `/pricing/versions/${receipt.pricingVersion}`)).body)), []);
    await drivers.socket.close();
  });

  test('while PICKED the quote counts the trip so far and the route on from the last position; an older quote is stale once another is confirmed', async () => {
    const booked = await bookRide(t, rider);
    assertOk(await accept(t, driver, booked.id));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    // Four kilometres north first, the wrong way.
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf({ lat: TRIP.pickupLat, lon: TRIP.pickupLon }, 4000) }));
    t.clock.advance(10 * MINUTE);
    const first = (await quote(booked.id, DROP)).body;
    const second = (await quote(booked.id, FURTHER)).body;
    assert.ok(first.distanceKm > booked.distanceKm + 4, `the way so far counts: ${first.distanceKm} km against ${booked.distanceKm} km booked`);
    assert.ok(first.durationMinutes >= 10 + booked.durationMinutes);
    assertOk(await confirm(booked.id, first.quoteId));
    assertError(await confirm(booked.id, second.quoteId), 409, 'QUOTE_STALE');
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }));
  });

  test('an expired, unknown or other ride\'s quote is refused, and so is a change before acceptance or after the ride', async () => {
    const booked = await bookRide(t, rider);
    assertError(await quote(booked.id), 409, 'RIDE_NOT_ACTIVE');
    assertOk(await accept(t, driver, booked.id));
    const old = (await quote(booked.id)).body;
    t.clock.advance(5 * MINUTE + 1000);
    assertError(await confirm(booked.id, old.quoteId), 409, 'QUOTE_EXPIRED');
    assertError(await confirm(booked.id, 'no-such-quote'), 404, 'QUOTE_NOT_FOUND');
    const other = await bookRide(t, rider);
    assertError(await confirm(other.id, (await quote(booked.id)).body.quoteId), 404, 'QUOTE_NOT_FOUND');
    assertError(await quote(booked.id, { lat: 123, lon: 77.6 }), 400, 'VALIDATION_FAILED');
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    const late = (await quote(booked.id)).body;
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }));
    assertError(await quote(booked.id), 409, 'RIDE_NOT_ACTIVE');
    assertError(await confirm(booked.id, late.quoteId), 409, 'RIDE_NOT_ACTIVE');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${other.id}`, { token: rider.token, body: {} }));
  });

  test("only the ride's rider changes its destination", async () => {
    const booked = await bookRide(t, rider);
    assertOk(await accept(t, driver, booked.id));
    const stranger = await signUp(t, { role: 'RIDER' });
    assertError(await quote(booked.id, FURTHER, stranger), 403);
    assertError(await quote(booked.id, FURTHER, driver), 403);
    const q = (await quote(booked.id)).body;
    assertError(await confirm(booked.id, q.quoteId, stranger), 403);
    assertError(await confirm(booked.id, q.quoteId, driver), 403);
    assertError(await quote(999_999), 404);
    assertError(await call(t.app, 'POST', `/rides/${booked.id}/destination`, { body: FURTHER }), 401);
    assert.equal((await seen(booked.id)).dropLat, TRIP.dropLat);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: {} }));
  });
});
