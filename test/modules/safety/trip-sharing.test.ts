import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import type { SharedTrip } from '../../../src/contract/types.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { report } from '../../helpers/dispatch.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { acceptedRide, assertError, assertOk, bookRide, northOf, pickedRide, pickupOf, setStatus, TRIP } from '../../helpers/rides.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';

// Trip-sharing links (decisions.md "Safety"): what the public view shows and hides, when it stops
// moving, and when it stops answering.

const PICKUP = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };
const MINUTE = 60_000;

describe('trip sharing', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  async function driverWithCar(): Promise<TestUser> {
    const driver = await signUp(t, { role: 'DRIVER', name: 'Ravi Kumar Shetty' });
    const saved = await apiOf(t, driver).send(routes.drivers.saveProfile, { body: { vehicleType: 'mini', vehicleNumber: `KA05MX${String(driver.id).padStart(4, '0')}`, vehicleModel: 'Maruti Swift' } });
    assertOk(asReply(saved), 'vehicle profile');
    return driver;
  }

  const share = async (user: TestUser, rideId: number) => asReply(await apiOf(t, user).send(routes.safety.share, { params: { rideId } }));
  const stopSharing = async (user: TestUser, rideId: number) => asReply(await apiOf(t, user).send(routes.safety.stopSharing, { params: { rideId } }));
  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  const shared = async (token: string) => asReply(await apiOf(t).send(routes.safety.shared, { params: { token } }));

  async function linkTo(rider: TestUser, rideId: number): Promise<string> {
    const reply = await share(rider, rideId);
    assertOk(reply, 'share');
    return tokenOf(reply.body.url);
  }

  test("a link shows the driver's first name, the vehicle, the live position and an ETA, and nothing of the rider", async () => {
    const rider = await signUp(t, { name: 'Asha Venkatesh' });
    const settings = await apiOf(t, rider).send(routes.settings.update, { body: { emergencyContact: '+91 98450 12345' } });
    assertOk(asReply(settings), 'settings');
    const driver = await driverWithCar();
    await report(t, driver, northOf(PICKUP, 800));
    const { booked } = await acceptedRide(t, rider, driver);

    const made = await share(rider, booked.id);
    assertOk(made, 'share');
    assert.equal(Object.keys(made.body).sort().join(), 'expiresAt,url');
    assert.match(made.body.url, /^http:\/\/[^/]+\/share\/[A-Za-z0-9_-]{43}$/, 'a 256-bit token in base64url');
    assert.ok(Date.parse(made.body.expiresAt) > t.clock.now());

    const reply = await shared(tokenOf(made.body.url));
    assertOk(reply, 'shared');
    const trip = reply.body as SharedTrip;
    assert.deepEqual(Object.keys(trip).sort(), ['driverFirstName', 'etaMinutes', 'position', 'status', 'vehicleModel', 'vehicleNumber']);
    assert.equal(trip.status, 'ACCEPTED');
    assert.equal(trip.driverFirstName, 'Ravi');
    assert.equal(trip.vehicleModel, 'Maruti Swift');
    assert.match(trip.vehicleNumber!, /^KA05MX/);
    assert.ok(trip.position && Math.abs(trip.position.lat - northOf(PICKUP, 800).lat) < 1e-9);
    // The router's minutes from the driver to the pickup: what the rider hears with each position too (ride-etas.ts).
    assert.equal(trip.etaMinutes, Math.ceil((await new StraightRouter().route(northOf(PICKUP, 800), pickupOf(booked))).durationMinutes), 'minutes to the pickup');
    const text = JSON.stringify(reply.body) + JSON.stringify(reply.headers);
    for (const secret of [rider.name, 'Asha', rider.email, '98450', driver.email, 'Kumar', 'Shetty', booked.startOtp, booked.endOtp]) {
      assert.ok(!text.includes(secret), `the shared view must not carry ${secret}`);
    }
    assert.equal(reply.headers['cache-control'], 'no-store');
  });

  test('the position follows the driver during the trip and stops moving when the ride is completed', async () => {
    const rider = await signUp(t);
    const driver = await driverWithCar();
    const { booked } = await pickedRide(t, rider, driver);
    const token = await linkTo(rider, booked.id);

    const midway = northOf(PICKUP, 1500);
    await report(t, driver, midway);
    let trip = (await shared(token)).body as SharedTrip;
    assert.equal(trip.status, 'PICKED');
    assert.deepEqual({ lat: trip.position?.lat, lon: trip.position?.lon }, midway);
    assert.equal(trip.etaMinutes, Math.ceil((await new StraightRouter().route(midway, { lat: booked.dropLat, lon: booked.dropLon })).durationMinutes), 'minutes to the drop-off');

    const end = northOf(PICKUP, 2500);
    await report(t, driver, end);
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');
    await report(t, driver, northOf(PICKUP, 9000));

    trip = (await shared(token)).body as SharedTrip;
    assert.equal(trip.status, 'COMPLETED');
    assert.deepEqual({ lat: trip.position?.lat, lon: trip.position?.lon }, end, 'where the ride ended, not where the driver went next');
    assert.equal(trip.etaMinutes, null);
  });

  test('a link answers 404 thirty minutes after the ride ends', async () => {
    const rider = await signUp(t);
    const driver = await driverWithCar();
    const { booked } = await pickedRide(t, rider, driver);
    const token = await linkTo(rider, booked.id);
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');

    t.clock.advance(30 * MINUTE - 1);
    assertOk(await shared(token), 'still shown just before');
    t.clock.advance(1);
    assertError(await shared(token), 404, 'SHARE_NOT_FOUND');
  });

  test('a link made for a long ride stops at its own expiry even while the ride runs', async () => {
    const rider = await signUp(t);
    const driver = await driverWithCar();
    const { booked } = await acceptedRide(t, rider, driver);
    const made = await share(rider, booked.id);
    assertOk(made, 'share');
    t.clock.advance(Date.parse(made.body.expiresAt) - t.clock.now());
    assertError(await shared(tokenOf(made.body.url)), 404, 'SHARE_NOT_FOUND');
  });

  test('a link answers 404 once the rider revokes it, and every link of the ride ends together', async () => {
    const rider = await signUp(t);
    const driver = await driverWithCar();
    const { booked } = await acceptedRide(t, rider, driver);
    const first = await linkTo(rider, booked.id);
    const second = await linkTo(rider, booked.id);
    assert.notEqual(first, second);

    assertError(await stopSharing(driver, booked.id), 403);
    assertOk(await shared(first), 'still shared');
    assertOk(await stopSharing(rider, booked.id), 'revoke');
    assertError(await shared(first), 404, 'SHARE_NOT_FOUND');
    assertError(await shared(second), 404, 'SHARE_NOT_FOUND');
  });

  test("only the ride's rider shares it, and only while it is ACCEPTED or PICKED", async () => {
    const rider = await signUp(t);
    const driver = await driverWithCar();
    const stranger = await signUp(t);
    const requested = await bookRide(t, rider);
    assertError(await share(rider, requested.id), 409, 'RIDE_NOT_ACTIVE');
    const { booked } = await acceptedRide(t, rider, driver);
    assertError(await share(driver, booked.id), 403);
    assertError(await share(stranger, booked.id), 403);
    assertError(await share(rider, 99_999_999), 404);
  });

  test('an unknown or malformed token is refused without telling anything', async () => {
    assertError(await shared('A'.repeat(43)), 404, 'SHARE_NOT_FOUND');
    assertError(await shared('short'), 400);
  });
});

describe('trip sharing links are rate-limited', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ rateLimitPerMinute: 3 });
  });
  after(() => t.close());

  test('guessing tokens meets the general limit of the caller', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await apiOf(t).send(routes.safety.shared, { params: { token: `${'B'.repeat(42)}${i}` } })).status);
    assert.deepEqual(statuses, [404, 404, 404, 429]);
  });
});
