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
  completedRide,
  pickedRide,
  rideStatus,
  setStatus,
} from '../../helpers/rides.ts';

const somewhere = { lat: 12.97, lon: 77.59 };

describe('who may do what with a ride', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
  });
  after(() => t.close());

  test('USER, RIDER and ADMIN may book; a DRIVER may not', async () => {
    for (const role of ['USER', 'RIDER'] as const) {
      const rider = await signUp(t, { role });
      const booked = await bookRide(t, rider);
      assert.equal(booked.riderId, rider.id, `${role} books for themselves`);
    }
    const byAdmin = await bookRide(t, admin);
    assert.equal(byAdmin.riderId, admin.id);
    const driver = await signUp(t, { role: 'DRIVER' });
    const refused = await call(t.app, 'POST', '/rides/book', { token: driver.token, body: { pickupLocation: 'A', dropLocation: 'B' } });
    assertError(refused, 403, 'FORBIDDEN');
    const history = await call(t.app, 'GET', '/rides/history', { token: driver.token });
    assert.deepEqual(history.body, [], 'a refused booking stores nothing');
  });

  test('a driver accepts only for themselves', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const otherDriver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    assertError(await setStatus(t, driver, booked.id, { status: 'ACCEPTED', driverId: String(otherDriver.id) }), 403);
    assertError(await setStatus(t, driver, booked.id, { status: 'ACCEPTED', driverId: String(rider.id) }), 403);
    const view = await rideStatus(t, booked.id);
    assert.equal(view.status, 'REQUESTED');
    assert.equal(view.driverId, null);
    assertOk(await accept(t, driver, booked.id));
  });

  test('USER and RIDER cannot accept rides, not even naming a real driver', async () => {
    const booker = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, booker);
    for (const role of ['USER', 'RIDER'] as const) {
      const rider = await signUp(t, { role });
      assertError(await setStatus(t, rider, booked.id, { status: 'ACCEPTED', driverId: String(rider.id) }), 403);
      assertError(await setStatus(t, rider, booked.id, { status: 'ACCEPTED', driverId: String(driver.id) }), 403);
    }
    assertError(await setStatus(t, booker, booked.id, { status: 'ACCEPTED', driverId: String(driver.id) }), 403, undefined);
    assert.equal((await rideStatus(t, booked.id)).status, 'REQUESTED');
  });

  test('an admin accepts for any DRIVER account, and only for one', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    assertError(await setStatus(t, admin, booked.id, { status: 'ACCEPTED', driverId: String(rider.id) }), 400);
    assertError(await setStatus(t, admin, booked.id, { status: 'ACCEPTED', driverId: String(admin.id) }), 400);
    assertError(await setStatus(t, admin, booked.id, { status: 'ACCEPTED', driverId: '987654321' }), 400);
    assert.equal((await rideStatus(t, booked.id)).status, 'REQUESTED');
    const reply = await setStatus(t, admin, booked.id, { status: 'ACCEPTED', driverId: String(driver.id) });
    assertOk(reply, 'admin accept');
    assert.equal(reply.body.driverId, driver.id);
    assert.equal(reply.body.startOtp, booked.startOtp);
  });

  test('a rider who signed up again as a driver cannot accept their own booking', async () => {
    const person = await signUp(t, { role: 'RIDER' });
    const ride = await bookRide(t, person);
    const mailsBefore = t.smtp.mails.length;
    await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'Both', email: person.email } });
    const otp = await t.smtp.otpFor(person.email, mailsBefore);
    assertOk(await call(t.app, 'POST', '/auth/signup', { body: { name: 'Both', email: person.email, password: person.password, otp, role: 'DRIVER' } }));
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: person.email, password: person.password } });
    assert.equal(login.body.role, 'DRIVER');
    const reply = await call(t.app, 'POST', `/rides/status/${ride.id}`, { token: login.body.accessToken, body: { status: 'ACCEPTED', driverId: String(person.id) } });
    assertError(reply, 403, 'OWN_RIDE');
    assert.equal((await call(t.app, 'GET', `/rides/status/${ride.id}`)).body.status, 'REQUESTED');
  });

  test('an admin naming a driverId beyond any account gets a 400, not a server error', async () => {
    const rider = await signUp(t);
    const booked = await bookRide(t, rider);
    for (const driverId of ['2147483648', '999999999999999']) {
      assertError(await setStatus(t, admin, booked.id, { status: 'ACCEPTED', driverId }), 400);
    }
    assert.equal((await rideStatus(t, booked.id)).status, 'REQUESTED');
  });

  test("only the ride's driver (or an admin) picks up and completes", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const otherDriver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t);
    const { booked } = await acceptedRide(t, rider, driver);
    for (const who of [otherDriver, rider, stranger]) {
      assertError(await setStatus(t, who, booked.id, { status: 'PICKED', otp: booked.startOtp }), 403);
    }
    assert.equal((await rideStatus(t, booked.id)).status, 'ACCEPTED');
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    for (const who of [otherDriver, rider, stranger]) {
      assertError(await setStatus(t, who, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 403);
    }
    assert.equal((await rideStatus(t, booked.id)).status, 'PICKED');
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }));
  });

  test('refused pickups by others do not use up the wrong-code allowance', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const otherDriver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    for (let i = 0; i < 8; i++) assertError(await setStatus(t, otherDriver, booked.id, { status: 'PICKED', otp: '0000' }), 403);
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
  });

  test("only the ride's driver (or an admin) reports its location", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const otherDriver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    for (const who of [otherDriver, rider]) {
      assertError(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: who.token, body: somewhere }), 403);
    }
    const view = await rideStatus(t, booked.id);
    assert.equal(view.driverLat, null, 'a refused report changes nothing');
    const nearby = await call(t.app, 'GET', `/rides/drivers/nearby?lat=${somewhere.lat}&lon=${somewhere.lon}`);
    assert.ok(!nearby.body.some((d: { driverId: number }) => d.driverId === otherDriver.id));
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: somewhere }));
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: admin.token, body: somewhere }));
  });

  test("the ride's rider, its driver or an admin may cancel; a stranger may not (both endpoints)", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const strangerRider = await signUp(t, { role: 'RIDER' });
    const strangerDriver = await signUp(t, { role: 'DRIVER' });

    const { booked } = await acceptedRide(t, rider, driver);
    for (const who of [strangerRider, strangerDriver]) {
      assertError(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: who.token, body: { reason: 'mine now' } }), 403);
      assertError(await setStatus(t, who, booked.id, { status: 'CANCELLED' }), 403);
    }
    assert.equal((await rideStatus(t, booked.id)).status, 'ACCEPTED');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token }));

    const cases: Array<[TestUser, string, 'cancel' | 'status']> = [
      [rider, 'rider', 'cancel'],
      [rider, 'rider', 'status'],
      [driver, 'driver', 'cancel'],
      [driver, 'driver', 'status'],
      [admin, 'admin', 'cancel'],
      [admin, 'admin', 'status'],
    ];
    for (const [who, by, path] of cases) {
      const { booked: ride } = await acceptedRide(t, rider, driver);
      const reply = path === 'cancel'
        ? await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: who.token })
        : await setStatus(t, who, ride.id, { status: 'CANCELLED' });
      assertOk(reply, `${by} cancels via ${path}`);
      assert.equal(reply.body.status, 'CANCELLED');
      assert.equal(reply.body.cancelledBy, by);
    }
  });

  test('only the ride\'s rider and driver give feedback; strangers and admins may not', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t);
    const strangerDriver = await signUp(t, { role: 'DRIVER' });
    const { ride } = await completedRide(t, rider, driver);
    for (const who of [stranger, strangerDriver, admin]) {
      assertError(await call(t.app, 'POST', `/rides/feedback/${ride.id}`, { token: who.token, body: { rating: 1, comment: 'meddling' } }), 403);
    }
    const history = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === ride.id);
    assert.equal(history.riderRating, null);
    assert.equal(history.driverRating, null);
    assertOk(await call(t.app, 'POST', `/rides/feedback/${ride.id}`, { token: rider.token, body: { rating: 5 } }));
    assertOk(await call(t.app, 'POST', `/rides/feedback/${ride.id}`, { token: driver.token, body: { rating: 5 } }));
  });

  test('history shows a stranger nothing of other people\'s rides', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t);
    await pickedRide(t, rider, driver);
    const reply = await call(t.app, 'GET', '/rides/history', { token: stranger.token });
    assertOk(reply);
    assert.deepEqual(reply.body, []);
  });

  test('unknown rides are 404 for the protected endpoints', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    assertError(await accept(t, driver, 987654321), 404);
    assertError(await call(t.app, 'POST', '/rides/cancel/987654321', { token: rider.token }), 404);
    assertError(await call(t.app, 'POST', '/rides/feedback/987654321', { token: rider.token, body: { rating: 5 } }), 404);
    assertError(await call(t.app, 'POST', '/rides/location/987654321', { token: driver.token, body: somewhere }), 404);
  });

  test('every bearer endpoint answers 401 without a token or with a bad one, and changes nothing', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const requests: Array<[string, string, unknown]> = [
      ['POST', '/rides/book', { pickupLocation: 'A', dropLocation: 'B' }],
      ['GET', '/rides/history', undefined],
      ['POST', `/rides/status/${booked.id}`, { status: 'PICKED', otp: booked.startOtp }],
      ['POST', `/rides/status/${booked.id}`, { status: 'CANCELLED' }],
      ['POST', `/rides/cancel/${booked.id}`, undefined],
      ['POST', `/rides/feedback/${booked.id}`, { rating: 5 }],
      ['POST', `/rides/location/${booked.id}`, somewhere],
    ];
    for (const [method, url, body] of requests) {
      assertError(await call(t.app, method as 'GET' | 'POST', url, { body }), 401);
      assertError(await call(t.app, method as 'GET' | 'POST', url, { body, headers: { authorization: 'Bearer not-a-jwt' } }), 401);
      assertError(await call(t.app, method as 'GET' | 'POST', url, { body, headers: { authorization: `Basic ${rider.token}` } }), 401);
    }
    // A refresh token is not an access token.
    assertError(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.refreshToken }), 401);
    const view = await rideStatus(t, booked.id);
    assert.equal(view.status, 'ACCEPTED');
    assert.equal(view.driverLat, null);
  });
});
