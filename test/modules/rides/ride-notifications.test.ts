import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import {
  accept,
  acceptedRide,
  assertError,
  assertOk,
  bookRide,
  eventsAbout,
  northOf,
  notificationsAbout,
  pickedRide,
  pickupOf,
  setStatus,
} from '../../helpers/rides.ts';

describe('ride notifications', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
  });
  after(() => t.close());

  const report = (driver: TestUser, rideId: number, position: { lat: number; lon: number }) =>
    call(t.app, 'POST', `/rides/location/${rideId}`, { token: driver.token, body: position });

  test('each step of a ride notifies the right people, in app, without any code', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const bystander = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), []);

    assertOk(await accept(t, driver, booked.id));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), []);

    assertOk(await report(driver, booked.id, northOf(pickupOf(booked), 100)));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'DRIVER_ARRIVING']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), []);

    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'DRIVER_ARRIVING', 'RIDE_STARTED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_STARTED']);

    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'DRIVER_ARRIVING', 'RIDE_STARTED', 'RIDE_COMPLETED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_STARTED', 'RIDE_COMPLETED']);
    assertOk(await call(t.app, 'POST', `/rides/feedback/${booked.id}`, { token: rider.token, body: { rating: 5 } }));
    assert.equal((await eventsAbout(t, rider, booked.id)).length, 5, 'feedback notifies nobody');

    assert.deepEqual(await eventsAbout(t, bystander, booked.id), []);
    assert.deepEqual(await eventsAbout(t, admin, booked.id), []);

    const codes = [booked.startOtp, booked.endOtp].map((code: string) => new RegExp(`(^|\\D)${code}(\\D|$)`));
    for (const party of [rider, driver]) {
      for (const n of await notificationsAbout(t, party, booked.id)) {
        assert.equal(n.userId, party.id);
        assert.equal(n.rideId, booked.id);
        assert.equal(n.channel, 'in_app');
        assert.equal(n.status, 'delivered');
        assert.ok(n.deliveredAt, 'delivered at once');
        assert.ok(n.title.length > 0 && n.message.length > 0);
        for (const code of codes) {
          assert.ok(!code.test(n.message) && !code.test(n.title), `${n.eventType} must not carry a ride code: ${n.message}`);
        }
      }
    }
  });

  test("a position through PUT /drivers/me/location reaches the driver's ride too: every door hands it to drivers, and the ride follows", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const pickup = pickupOf(booked);
    const arriving = async () => (await eventsAbout(t, rider, booked.id)).filter((e) => e === 'DRIVER_ARRIVING').length;
    t.clock.advance(5000);
    assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: northOf(pickup, 2000) }));
    assert.equal(await arriving(), 0);
    t.clock.advance(5000);
    assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: northOf(pickup, 100) }));
    assert.equal(await arriving(), 1, 'the notice is claimed before the answer');
  });

  test('DRIVER_ARRIVING reaches the rider once, when the driver first comes within 300 m of the pickup', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const pickup = pickupOf(booked);
    const arriving = async () => (await eventsAbout(t, rider, booked.id)).filter((e) => e === 'DRIVER_ARRIVING').length;

    for (const metres of [3000, 1000, 340]) {
      t.clock.advance(5000);
      assertOk(await report(driver, booked.id, northOf(pickup, metres)));
      assert.equal(await arriving(), 0, `nothing at ${metres} m`);
    }
    for (const metres of [280, 150, 20, 0, 250]) {
      t.clock.advance(5000);
      assertOk(await report(driver, booked.id, northOf(pickup, metres)));
      assert.equal(await arriving(), 1, `exactly one notice after a report at ${metres} m`);
    }
    // Moving away and back does not repeat it, and neither does the trip itself.
    t.clock.advance(5000);
    assertOk(await report(driver, booked.id, northOf(pickup, 2000)));
    assertOk(await report(driver, booked.id, northOf(pickup, 50)));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    assertOk(await report(driver, booked.id, northOf(pickup, 10)));
    assert.equal(await arriving(), 1);
    assert.ok(!(await eventsAbout(t, driver, booked.id)).includes('DRIVER_ARRIVING'), 'the driver is not told');
  });

  test('simultaneous reports near the pickup still notify once', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const replies = await Promise.all([10, 20, 30, 40, 50, 60].map((metres) => report(driver, booked.id, northOf(pickupOf(booked), metres))));
    for (const reply of replies) assertOk(reply, 'location');
    assert.deepEqual((await eventsAbout(t, rider, booked.id)).filter((e) => e === 'DRIVER_ARRIVING'), ['DRIVER_ARRIVING']);
  });

  test('no arrival notice for a ride without pickup coordinates, or first reported once PICKED', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const bare = await bookRide(t, rider, { pickupLat: null, pickupLon: null, dropLat: null, dropLon: null });
    assertOk(await accept(t, driver, bare.id));
    assertOk(await report(driver, bare.id, { lat: 12.9716, lon: 77.5946 }));
    assert.deepEqual(await eventsAbout(t, rider, bare.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED']);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${bare.id}`, { token: driver.token }));

    const { booked } = await pickedRide(t, rider, driver);
    assertOk(await report(driver, booked.id, northOf(pickupOf(booked), 5)));
    assert.ok(!(await eventsAbout(t, rider, booked.id)).includes('DRIVER_ARRIVING'));
  });

  test('a refused change notifies nobody', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const other = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const wrong = booked.startOtp === '1111' ? '2222' : '1111';
    assertError(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: wrong }), 400);
    assertError(await accept(t, other, booked.id), 409);
    assertError(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: other.token }), 403);
    assertError(await report(other, booked.id, northOf(pickupOf(booked), 5)), 403);
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), []);
    assert.deepEqual(await eventsAbout(t, other, booked.id), []);
  });

  test('a rider cancelling notifies the driver but not the rider', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 'plans changed' } }));
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_CANCELLED']);
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED']);

    const picked = await pickedRide(t, rider, driver);
    assertOk(await setStatus(t, rider, picked.booked.id, { status: 'CANCELLED' }));
    assert.deepEqual(await eventsAbout(t, driver, picked.booked.id), ['RIDE_STARTED', 'RIDE_CANCELLED']);
    assert.ok(!(await eventsAbout(t, rider, picked.booked.id)).includes('RIDE_CANCELLED'));
  });

  test('a rider cancelling a ride nobody accepted notifies nobody', async () => {
    const rider = await signUp(t);
    const booked = await bookRide(t, rider);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token }));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED']);
  });

  test('a driver cancelling notifies the rider but not the driver', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: driver.token, body: { reason: 'flat tyre' } }));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'RIDE_CANCELLED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), []);

    const picked = await pickedRide(t, rider, driver);
    assertOk(await setStatus(t, driver, picked.booked.id, { status: 'CANCELLED' }));
    assert.deepEqual((await eventsAbout(t, rider, picked.booked.id)).at(-1), 'RIDE_CANCELLED');
    assert.deepEqual(await eventsAbout(t, driver, picked.booked.id), ['RIDE_STARTED']);
  });

  test('an admin cancelling notifies both parties, and not the admin', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: admin.token, body: { reason: 'fraud check' } }));
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'RIDE_CANCELLED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_CANCELLED']);
    assert.deepEqual(await eventsAbout(t, admin, booked.id), []);

    const picked = await pickedRide(t, rider, driver);
    assertOk(await setStatus(t, admin, picked.booked.id, { status: 'CANCELLED' }));
    assert.deepEqual((await eventsAbout(t, rider, picked.booked.id)).at(-1), 'RIDE_CANCELLED');
    assert.deepEqual(await eventsAbout(t, driver, picked.booked.id), ['RIDE_STARTED', 'RIDE_CANCELLED']);

    const requested = await bookRide(t, rider);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${requested.id}`, { token: admin.token }));
    assert.deepEqual(await eventsAbout(t, rider, requested.id), ['RIDE_REQUESTED', 'RIDE_CANCELLED'], 'with no driver yet, only the rider hears');
  });
});
