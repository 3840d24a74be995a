import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toIso } from '../../../src/platform/clock.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, near, noOfferFor, offerOf, offersOf, PICKUP } from '../../helpers/dispatch.ts';
import { accept, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// decisions.md "Dispatch" and "Realtime channel": an offer reaches the driver over the realtime
// channel (offer.created, then offer.withdrawn or offer.expired) and in GET /drivers/me/offers;
// accepting it is the contract's accept, racing it safely; a taken or cancelled ride's offers are
// withdrawn at once; the ride remembers what dispatch learned. Rounds run every ROUND_MS.

const ROUND_MS = 60;
const TTL_MS = 15_000;

for (const mode of ['nearest', 'batched'] as const) {
  describe(`offers (${mode})`, () => {
    let t: TestApp;
    let admin: TestUser;
    const sockets: TestSocket[] = [];
    before(async () => {
      ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode, batchMs: ROUND_MS, offerTtlMs: TTL_MS, maxMs: 120_000 } }));
    });
    after(async () => {
      await Promise.all(sockets.map((socket) => socket.close()));
      await t.close();
    });

    let area = 0;
    const place = () => {
      area += 1;
      return { lat: PICKUP.lat - area * 0.5, lon: PICKUP.lon };
    };
    const book = (rider: TestUser, pickup: { lat: number; lon: number }) =>
      bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    const socketOf = async (user: TestUser) => {
      const { socket } = await TestSocket.connect(await realtimeUrl(t.app), user.token);
      sockets.push(socket);
      return socket;
    };
    const message = (socket: TestSocket, type: string, offerId: number) => socket.waitFor((m) => m.type === type && m.data?.offerId === offerId, `${type} of offer ${offerId}`);

    test('offers reach the driver over the realtime channel: created, withdrawn when the ride is cancelled, expired when unanswered', async () => {
      const pickup = place();
      const driver = await driverAt(t, near(pickup, 0.4));
      const socket = await socketOf(driver);
      const rider = await signUp(t);

      const cancelled = await book(rider, pickup);
      const created = await socket.waitFor((m) => m.type === 'offer.created' && m.data?.rideId === cancelled.id, 'offer.created');
      assert.deepEqual(created.data, (await offersOf(t, driver))[0], 'the message carries the offer as GET /drivers/me/offers shows it');
      assert.equal(created.data.status, 'pending');
      assertOk(await call(t.app, 'POST', `/rides/cancel/${cancelled.id}`, { token: rider.token }));
      assert.equal((await message(socket, 'offer.withdrawn', created.data.offerId)).data.status, 'withdrawn');

      const ignored = await book(rider, pickup);
      const second = await socket.waitFor((m) => m.type === 'offer.created' && m.data?.rideId === ignored.id, 'the second offer');
      t.clock.advance(TTL_MS);
      assert.equal((await message(socket, 'offer.expired', second.data.offerId)).data.status, 'expired');
    });

    test('an offer accepted is the contract accept; the ride remembers its offers and the pickup distance, for the rider, the driver and admins only', async () => {
      const pickup = place();
      const declining = await driverAt(t, near(pickup, 0.3));
      const driver = await driverAt(t, near(pickup, 0.5));
      const rider = await signUp(t);
      const ride = await book(rider, pickup);
      const firstOfferAt = toIso(t.clock.now());
      const first = await offerOf(t, declining, ride.id);
      const publicList = (await call(t.app, 'GET', '/rides/requested')).body.find((r: { id: number }) => r.id === ride.id);
      assert.equal(publicList.offerCount, undefined, 'open requests do not show what dispatch learned');
      t.clock.advance(1_000);
      assertOk(await call(t.app, 'POST', `/drivers/me/offers/${first.offerId}/decline`, { token: declining.token }));
      const offer = await offerOf(t, driver, ride.id);

      const accepted = await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: driver.token });
      assertOk(accepted);
      assert.equal(accepted.body.status, 'ACCEPTED');
      assert.equal(accepted.body.driverId, driver.id);
      assert.equal(accepted.body.startOtp, ride.startOtp, 'the accept answer carries the start code, as the contract says');
      assert.ok(Math.abs(accepted.body.pickupDistanceKm - 0.5) < 0.01, `the accept answer shows the pickup distance (${accepted.body.pickupDistanceKm})`);
      assert.deepEqual(await offersOf(t, driver), [], 'no pending offer once accepted');

      const learned = { firstOfferAt, offerCount: 2 };
      const riderView = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === ride.id);
      const driverView = (await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: driver.token })).body;
      const adminView = (await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: admin.token })).body;
      for (const [who, view] of [['rider', riderView], ['driver', driverView], ['admin', adminView]] as const) {
        assert.deepEqual({ firstOfferAt: view.firstOfferAt, offerCount: view.offerCount }, learned, who);
        assert.ok(Math.abs(view.pickupDistanceKm - 0.5) < 0.01, `${who}: the pickup distance at acceptance is recorded (${view.pickupDistanceKm})`);
      }
      const publicView = (await call(t.app, 'GET', `/rides/status/${ride.id}`)).body;
      for (const field of ['firstOfferAt', 'offerCount', 'pickupDistanceKm']) assert.equal(field in publicView, false, `the public view has no ${field}`);
    });

    test('an offer accept racing a contract accept: one winner, and the loser’s offer is withdrawn', async () => {
      for (let race = 0; race < 3; race++) {
        const pickup = place();
        const offered = await driverAt(t, near(pickup, 0.2));
        const other = await driverAt(t, near(pickup, 3));
        const socket = await socketOf(offered);
        const rider = await signUp(t);
        const ride = await book(rider, pickup);
        const offer = await offerOf(t, offered, ride.id);
        const [viaOffer, viaContract] = await Promise.all([
          call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: offered.token }),
          accept(t, other, ride.id),
        ]);
        assert.deepEqual([viaOffer.status, viaContract.status].sort(), [200, 409], `${viaOffer.status} ${viaContract.status}`);
        const winner = viaOffer.status === 200 ? offered : other;
        assertError(viaOffer.status === 200 ? viaContract : viaOffer, 409);
        assert.equal((await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: rider.token })).body.driverId, winner.id);
        assert.deepEqual(await offersOf(t, offered), [], 'no pending offer is left');
        if (winner === other) await message(socket, 'offer.withdrawn', offer.offerId);
      }
    });

    test('a driver never holds two offers; cancelling withdraws the offer and frees the driver for the next ride', async () => {
      const pickup = place();
      const driver = await driverAt(t, near(pickup, 0.2));
      const rider = await signUp(t);
      const first = await book(rider, pickup);
      await offerOf(t, driver, first.id);
      const second = await book(await signUp(t), near(pickup, 0.1));
      await noOfferFor(t, driver, 4, ROUND_MS, [first.id]);
      assertOk(await call(t.app, 'POST', `/rides/cancel/${first.id}`, { token: rider.token }));
      await offerOf(t, driver, second.id);
    });

    test('a driver who goes offline gives their offer back, and the ride goes to the next driver at once', async () => {
      const pickup = place();
      const leaving = await driverAt(t, near(pickup, 0.2));
      const next = await driverAt(t, near(pickup, 0.9));
      const socket = await socketOf(leaving);
      const ride = await book(await signUp(t), pickup);
      const offer = await offerOf(t, leaving, ride.id);
      assertOk(await call(t.app, 'DELETE', '/drivers/me/location', { token: leaving.token }));
      await message(socket, 'offer.withdrawn', offer.offerId);
      await offerOf(t, next, ride.id);
    });

    test('a driver who takes another ride by the contract loses their pending offer, and that ride goes to the next driver', async () => {
      const pickup = place();
      const driver = await driverAt(t, near(pickup, 0.2));
      const next = await driverAt(t, near(pickup, 1));
      const socket = await socketOf(driver);
      const ride = await book(await signUp(t), pickup);
      const offer = await offerOf(t, driver, ride.id);
      const elsewhere = await book(await signUp(t), place());
      assertOk(await accept(t, driver, elsewhere.id));
      await message(socket, 'offer.withdrawn', offer.offerId);
      await offerOf(t, next, ride.id);
    });
  });
}
