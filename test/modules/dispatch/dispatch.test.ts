import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CANDIDATES_PER_RIDE } from '../../../src/modules/dispatch/dispatcher.ts';
import { ROAD_FACTOR } from '../../../src/modules/pricing/pricing.model.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, eventually, kmNorth, near, noOfferFor, offerOf, offersOf, PICKUP, report } from '../../helpers/dispatch.ts';
import { accept, assertError, assertOk, bookRide, eventsAbout, setStatus } from '../../helpers/rides.ts';

// decisions.md "Dispatch": in nearest and batched modes each open ride is offered to the best
// available driver; a ride declined or let expire goes to the next one while the search widens
// (2, 5, 8 km), and after DISPATCH_MAX_SECONDS the rider hears no driver was found. Rounds run
// every ROUND_MS of real time; offer and search times follow the app clock.

const ROUND_MS = 60;
const TTL_MS = 15_000;
const ADMIN_EMAIL = 'dispatch-admin@example.com';

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
      // An SUV serves a mini booking (an upgrade for the rider; vehicles.ts).
      const nearest = await driverAt(t, near(pickup, 0.8), 'suv');
      const farther = await driverAt(t, near(pickup, 1.5));

      const ride = await book(await signUp(t), pickup, { rideType: 'mini' });
      const offer = await offerOf(t, nearest, ride.id);
      // By road, as the rider's app shows the way: 0.8 km in a straight line × the road factor.
      assert.ok(Math.abs(offer.pickupDistanceKm - 0.8 * ROAD_FACTOR) < 0.01, `distance ${offer.pickupDistanceKm}`);
      for (const other of [busy, bike, offline, noProfile, farther]) assert.deepEqual(await offersOf(t, other), [], `driver ${other.id} got no offer`);
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

    test('with nobody near, the search widens from 2 to 5 to 8 km, one offer period at a time, and no farther', async () => {
      const pickup = place();
      const mid = await driverAt(t, near(pickup, 4));
      const ride = await book(await signUp(t), pickup);
      await noOfferFor(t, mid, 3, ROUND_MS);
      t.clock.advance(TTL_MS);
      await report(t, mid, near(pickup, 4));
      const first = await offerOf(t, mid, ride.id);
      assertOk(await call(t.app, 'POST', `/drivers/me/offers/${first.offerId}/decline`, { token: mid.token }));

      // 6.5 km away: only once the search reaches 8 km. 9 km away (the other side): never.
      const far = await driverAt(t, near(pickup, 6.5));
      const beyond = await driverAt(t, near(pickup, -9));
      await noOfferFor(t, far, 3, ROUND_MS);
      t.clock.advance(TTL_MS);
      for (const [driver, km] of [[far, 6.5], [beyond, -9]] as const) await report(t, driver, near(pickup, km));
      const last = await offerOf(t, far, ride.id);
      assertOk(await call(t.app, 'POST', `/drivers/me/offers/${last.offerId}/decline`, { token: far.token }));
      t.clock.advance(TTL_MS);
      await report(t, beyond, near(pickup, -9));
      await noOfferFor(t, beyond, 3, ROUND_MS);
    });

    test('after DISPATCH_MAX_SECONDS the rider hears NO_DRIVER_FOUND once; the ride stays REQUESTED', async () => {
      const rider = await signUp(t);
      const sampleSize = async () => (await call(t.app, 'GET', '/rides/insights/predictive', { token: rider.token })).body.sampleSize as number;
      const before = await sampleSize();
      const ride = await book(rider, place());
      t.clock.advance(120_001);
      await eventually(async () => ((await eventsAbout(t, rider, ride.id)).includes('NO_DRIVER_FOUND') ? true : undefined), 'NO_DRIVER_FOUND');
      await new Promise((resolve) => setTimeout(resolve, 3 * ROUND_MS));
      assert.deepEqual((await eventsAbout(t, rider, ride.id)).filter((e: string) => e === 'NO_DRIVER_FOUND'), ['NO_DRIVER_FOUND'], 'once');
      const status = await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: rider.token });
      assert.equal(status.body.status, 'REQUESTED');
      assert.equal(typeof status.body.noDriverFoundAt, 'string');
      // Telling the rider changes the ride without booking it again: demand counts it once.
      assert.equal(await sampleSize(), before + 1);
    });
  });
}

describe('dispatch: broadcast mode, approvals, availability, restarts', () => {
  test('broadcast offers nothing: drivers pick from /rides/requested and accept by the contract', async () => {
    const t = await createTestApp({ dispatch: { mode: 'broadcast', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const driver = await driverAt(t, kmNorth(0.2));
      const ride = await bookRide(t, await signUp(t));
      await noOfferFor(t, driver, 4, ROUND_MS);
      const open = await call(t.app, 'GET', '/rides/requested');
      assert.ok(open.body.some((r: { id: number }) => r.id === ride.id), 'the ride is listed for drivers');
      assertOk(await accept(t, driver, ride.id));
    } finally {
      await t.close();
    }
  });

  test('with DRIVER_APPROVAL_REQUIRED an unapproved driver gets no offers and cannot accept; approved, they get the ride', async () => {
    const t = await createTestApp({ adminEmails: new Set([ADMIN_EMAIL]), driverApprovalRequired: true, dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const admin = await signUp(t, { role: 'ADMIN', email: ADMIN_EMAIL });
      const driver = await driverAt(t, kmNorth(0.2));
      const profile = await call(t.app, 'GET', '/drivers/me/profile', { token: driver.token });
      assert.equal(profile.body.approval, 'pending');
      const ride = await bookRide(t, await signUp(t));
      await noOfferFor(t, driver, 4, ROUND_MS);
      assertError(await accept(t, driver, ride.id), 403, 'DRIVER_NOT_APPROVED');

      assertOk(await call(t.app, 'POST', `/admin/drivers/${driver.id}/approve`, { token: admin.token }));
      await offerOf(t, driver, ride.id);
    } finally {
      await t.close();
    }
  });

  test('an available driver behind more busy drivers than a ride considers still gets the offer', async () => {
    // Busy drivers are not among the available drivers at all: they cannot crowd the nearest few out.
    const t = await createTestApp({ dispatch: { mode: 'batched', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const rider = await signUp(t);
      for (let i = 0; i <= CANDIDATES_PER_RIDE; i++) {
        const busy = await driverAt(t, kmNorth(0.05 + i * 0.02));
        assertOk(await accept(t, busy, (await bookRide(t, rider, { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon })).id));
      }
      const free = await driverAt(t, kmNorth(1.2));
      const ride = await bookRide(t, await signUp(t));
      await offerOf(t, free, ride.id);
    } finally {
      await t.close();
    }
  });

  test('drivers online before a restart are offered rides after it without reporting again', async () => {
    const t = await createTestApp({ dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } });
    try {
      const driver = await driverAt(t, kmNorth(0.3));
      await t.restart();
      const ride = await bookRide(t, await signUp(t));
      await offerOf(t, driver, ride.id);
    } finally {
      await t.close();
    }
  });

  test('a round reads the rides waiting longest, at most its limit: a backlog costs it no more', async () => {
    const t = await createTestApp({ dispatch: { mode: 'batched', batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000, roundRides: 2 } });
    try {
      // Two rides wait where no driver is; a third, newer, is booked next to one.
      const oldest = await signUp(t);
      const oldestRide = await bookRide(t, oldest);
      await bookRide(t, await signUp(t));
      const elsewhere = kmNorth(40);
      const driver = await driverAt(t, near(elsewhere, 0.3));
      const newest = await bookRide(t, await signUp(t), { pickupLat: elsewhere.lat, pickupLon: elsewhere.lon, dropLat: elsewhere.lat + 0.05, dropLon: elsewhere.lon });
      await noOfferFor(t, driver, 5, ROUND_MS);
      // One of the two oldest leaves: the newest is now among the two the round reads.
      assertOk(await setStatus(t, oldest, oldestRide.id, { status: 'CANCELLED' }));
      await offerOf(t, driver, newest.id);
    } finally {
      await t.close();
    }
  });
});
