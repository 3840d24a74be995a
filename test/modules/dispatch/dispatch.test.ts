import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, eventually, kmNorth, noOfferFor, offerOf, offersOf, PICKUP, report } from '../../helpers/dispatch.ts';
import { accept, assertError, assertOk, bookRide, eventsAbout } from '../../helpers/rides.ts';

// decisions.md "Dispatch": in nearest and batched modes each open ride is offered to the best
// available driver; offers expire, can be declined or accepted, and are withdrawn when the ride is
// taken or cancelled. Rounds run every ROUND_MS of real time; offer and search times follow the app clock.

const ROUND_MS = 60;
const TTL_MS = 15_000;

for (const mode of ['nearest', 'batched'] as const) {
  describe(`dispatch (${mode})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dispatch: { mode, batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    });
    after(() => t.close());

    // Each test works in its own neighbourhood, far from the others' drivers.
    let area = 0;
    const place = () => {
      area += 1;
      return { lat: PICKUP.lat + area * 0.5, lon: PICKUP.lon };
    };
    const near = (origin: { lat: number; lon: number }, km: number) => ({ lat: origin.lat + km / 111.2, lon: origin.lon });
    const book = (rider: TestUser, pickup: { lat: number; lon: number }, body: Record<string, unknown> = {}) =>
      bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon, ...body });

    test('the ride goes to the nearest suitable available driver, not to a busy, offline or wrong-vehicle one', async () => {
      const pickup = place();
      const busy = await driverAt(t, near(pickup, 0.1));
      const busyRide = await book(await signUp(t), near(pickup, 0.1));
      assertOk(await accept(t, busy, busyRide.id));
      const bike = await driverAt(t, near(pickup, 0.2), 'bike');
      const offline = await driverAt(t, near(pickup, 0.3));
      assertOk(await call(t.app, 'DELETE', '/drivers/me/location', { token: offline.token }));
      const noProfile = await signUp(t, { role: 'DRIVER' });
      await report(t, noProfile, near(pickup, 0.35));
      const nearest = await driverAt(t, near(pickup, 0.8), 'suv');
      const farther = await driverAt(t, near(pickup, 1.5));

      const ride = await book(await signUp(t), pickup, { rideType: 'mini' });
      const offer = await offerOf(t, nearest, ride.id);
      assert.ok(Math.abs(offer.pickupDistanceKm - 0.8) < 0.01, `distance ${offer.pickupDistanceKm}`);
      for (const other of [busy, bike, offline, noProfile, farther]) assert.deepEqual(await offersOf(t, other), [], `driver ${other.id} got no offer`);
    });

    test('an offer accepted is the contract accept: the driver gets the ride, with its start code', async () => {
      const pickup = place();
      const driver = await driverAt(t, near(pickup, 0.5));
      const rider = await signUp(t);
      const ride = await book(rider, pickup);
      const offer = await offerOf(t, driver, ride.id);
      const accepted = await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: driver.token });
      assertOk(accepted);
      assert.equal(accepted.body.status, 'ACCEPTED');
      assert.equal(accepted.body.driverId, driver.id);
      assert.equal(accepted.body.startOtp, ride.startOtp);
      assert.deepEqual(await offersOf(t, driver), [], 'no pending offer once accepted');
      const history = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === ride.id);
      assert.equal(history.offerCount, 1);
      assert.equal(typeof history.firstOfferAt, 'string');
      assert.ok(Math.abs(history.pickupDistanceKm - 0.5) < 0.01, 'the pickup distance at acceptance is recorded');
    });

    test('declined, the ride goes to the next driver; the one who declined is not asked again', async () => {
      const pickup = place();
      const first = await driverAt(t, near(pickup, 0.3));
      const second = await driverAt(t, near(pickup, 0.6));
      const ride = await book(await signUp(t), pickup);
      const offer = await offerOf(t, first, ride.id);
      const declined = await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/decline`, { token: first.token, body: { reason: 'too far' } });
      assertOk(declined);
      assert.equal(declined.body.status, 'declined');
      await offerOf(t, second, ride.id);
      await noOfferFor(t, first, 3, ROUND_MS);
    });

    test('unanswered, the offer expires and the ride goes to the next driver', async () => {
      const pickup = place();
      const first = await driverAt(t, near(pickup, 0.3));
      const second = await driverAt(t, near(pickup, 0.6));
      const ride = await book(await signUp(t), pickup);
      const offer = await offerOf(t, first, ride.id);
      t.clock.advance(TTL_MS + 1);
      // Positions must stay fresh on the moved clock.
      await report(t, second, near(pickup, 0.6));
      await offerOf(t, second, ride.id);
      assertError(await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: first.token }), 409);
    });

    test('with nobody near, the search widens: a driver 4 km away is offered the ride only after the first period', async () => {
      const pickup = place();
      const far = await driverAt(t, near(pickup, 4));
      const ride = await book(await signUp(t), pickup);
      await noOfferFor(t, far, 3, ROUND_MS);
      t.clock.advance(TTL_MS);
      await report(t, far, near(pickup, 4));
      await offerOf(t, far, ride.id);
    });

    test('a contract accept racing an offer accept: one winner, the other offer withdrawn', async () => {
      const pickup = place();
      const offered = await driverAt(t, near(pickup, 0.2));
      const other = await driverAt(t, near(pickup, 3));
      const ride = await book(await signUp(t), pickup);
      const offer = await offerOf(t, offered, ride.id);
      const [viaOffer, viaContract] = await Promise.all([
        call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: offered.token }),
        accept(t, other, ride.id),
      ]);
      assert.deepEqual([viaOffer.status, viaContract.status].sort(), [200, 409], `${viaOffer.status} ${viaContract.status}`);
      assert.deepEqual(await offersOf(t, offered), [], 'no pending offer is left');
    });

    test('cancelling withdraws the offer; a driver never holds two offers', async () => {
      const pickup = place();
      const driver = await driverAt(t, near(pickup, 0.2));
      const rider = await signUp(t);
      const first = await book(rider, pickup);
      await offerOf(t, driver, first.id);
      const second = await book(await signUp(t), near(pickup, 0.1));
      await new Promise((resolve) => setTimeout(resolve, 4 * ROUND_MS));
      assert.deepEqual((await offersOf(t, driver)).map((o) => o.rideId), [first.id], 'the second ride waits; one offer at a time');
      assertOk(await call(t.app, 'POST', `/rides/cancel/${first.id}`, { token: rider.token }));
      // Freed, the driver gets the other ride.
      await offerOf(t, driver, second.id);
    });

    test('after DISPATCH_MAX_SECONDS the rider hears NO_DRIVER_FOUND once; the ride stays REQUESTED', async () => {
      const rider = await signUp(t);
      const ride = await book(rider, place());
      t.clock.advance(120_001);
      await eventually(async () => ((await eventsAbout(t, rider, ride.id)).includes('NO_DRIVER_FOUND') ? true : undefined), 'NO_DRIVER_FOUND');
      await new Promise((resolve) => setTimeout(resolve, 3 * ROUND_MS));
      assert.deepEqual((await eventsAbout(t, rider, ride.id)).filter((e: string) => e === 'NO_DRIVER_FOUND'), ['NO_DRIVER_FOUND'], 'once');
      const status = await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: rider.token });
      assert.equal(status.body.status, 'REQUESTED');
      assert.equal(typeof status.body.noDriverFoundAt, 'string');
    });
  });
}

describe('dispatch: broadcast mode and approvals', () => {
  test('broadcast offers nothing: drivers pick from /rides/requested', async () => {
    const t = await createTestApp({ dispatch: { mode: 'broadcast', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const driver = await driverAt(t, kmNorth(0.2));
      await bookRide(t, await signUp(t));
      await noOfferFor(t, driver, 4, ROUND_MS);
    } finally {
      await t.close();
    }
  });

  test('with DRIVER_APPROVAL_REQUIRED an unapproved driver gets no offers and cannot accept', async () => {
    const t = await createTestApp({ driverApprovalRequired: true, dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const driver = await driverAt(t, kmNorth(0.2));
      const profile = await call(t.app, 'GET', '/drivers/me/profile', { token: driver.token });
      assert.equal(profile.body.approval, 'pending');
      const ride = await bookRide(t, await signUp(t));
      await noOfferFor(t, driver, 4, ROUND_MS);
      assertError(await accept(t, driver, ride.id), 403, 'DRIVER_NOT_APPROVED');
    } finally {
      await t.close();
    }
  });
});
