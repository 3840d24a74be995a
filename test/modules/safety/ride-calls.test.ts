import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PhoneStandIn } from '../../../scripts/phone-stand-in.ts';
import { routes } from '../../../src/contract/routes.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { report } from '../../helpers/dispatch.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { startPhoneProvider, verifiedPhone } from '../../helpers/phone-provider.ts';
import { acceptedRide, assertError, assertOk, bookRide, completedRide, northOf, setStatus, TRIP } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// Masked calls (decisions.md "Safety"): the telephony provider stand-in, over real HTTP, is asked to
// bridge the ride's rider and driver under the virtual number, and nothing either of them is answered
// or sent carries the other's number.

const VIRTUAL_NUMBER = '+918047000000';
const PICKUP = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };

describe('masked calls', () => {
  let t: TestApp;
  let provider: PhoneStandIn;
  before(async () => {
    provider = await startPhoneProvider();
    t = await createTestApp({ smsUrl: provider.smsUrl, telephony: { url: provider.telephonyUrl, callerId: VIRTUAL_NUMBER } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  const call = async (user: TestUser, rideId: number) => asReply(await apiOf(t, user).send(routes.safety.call, { params: { rideId } }));
  /** The number as it could appear anywhere: its digits without the +. */
  const digitsOf = (phone: string) => phone.slice(1);

  async function pair() {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const riderPhone = await verifiedPhone(t, provider, rider);
    const driverPhone = await verifiedPhone(t, provider, driver);
    return { rider, driver, riderPhone, driverPhone };
  }

  test("while a call is bridged, no answer or live message to the rider carries the driver's number, nor the reverse", async () => {
    const { rider, driver, riderPhone, driverPhone } = await pair();
    const url = await realtimeUrl(t.app);
    const { socket: riderSocket } = await TestSocket.connect(url, rider.token);
    const { socket: driverSocket } = await TestSocket.connect(url, driver.token);
    try {
      await report(t, driver, northOf(PICKUP, 800));
      const { booked } = await acceptedRide(t, rider, driver);
      const seenByRider: unknown[] = [];
      const seenByDriver: unknown[] = [];

      const fromRider = await call(rider, booked.id);
      assertOk(fromRider, 'rider calls');
      assert.deepEqual(Object.keys(fromRider.body).sort(), ['callId', 'message']);
      const bridged = provider.calls.at(-1)!;
      assert.deepEqual({ from: bridged.from, to: bridged.to, callerId: bridged.callerId, status: bridged.status }, { from: riderPhone, to: driverPhone, callerId: VIRTUAL_NUMBER, status: 'in-progress' });
      assert.equal(fromRider.body.callId, bridged.sid);
      seenByRider.push(fromRider);

      const fromDriver = await call(driver, booked.id);
      assertOk(fromDriver, 'driver calls');
      assert.deepEqual([provider.calls.at(-1)!.from, provider.calls.at(-1)!.to], [driverPhone, riderPhone]);
      seenByDriver.push(fromDriver);

      // The ride goes on while both calls are in progress: every view either side reads or hears.
      assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup');
      await report(t, driver, northOf(PICKUP, -300));
      await riderSocket.until(() => riderSocket.messages.some((m) => m.type === 'ride.position'), 'ride.position');
      for (const route of [routes.rides.active, routes.notifications.history, routes.settings.get, routes.safety.phone]) {
        seenByRider.push(asReply(await apiOf(t, rider).send(route)));
        seenByDriver.push(asReply(await apiOf(t, driver).send(route)));
      }
      seenByRider.push(asReply(await apiOf(t, rider).send(routes.rides.status, { params: { rideId: booked.id } })));
      seenByDriver.push(asReply(await apiOf(t, driver).send(routes.rides.status, { params: { rideId: booked.id } })));
      seenByRider.push(asReply(await apiOf(t, rider).send(routes.rides.history, { query: {} })));
      seenByDriver.push(asReply(await apiOf(t, driver).send(routes.rides.history, { query: {} })));
      seenByDriver.push(asReply(await apiOf(t, driver).send(routes.drivers.earnings, { query: {} })));
      seenByRider.push(...riderSocket.received);
      seenByDriver.push(...driverSocket.received);
      assert.ok(riderSocket.messages.some((m) => m.type === 'ride.updated' && m.data.status === 'PICKED'), 'the rider heard the pickup');

      const riderSaw = JSON.stringify(seenByRider);
      const driverSaw = JSON.stringify(seenByDriver);
      assert.ok(riderSaw.includes(digitsOf(riderPhone)), "the rider's own number is theirs to see (GET /auth/phone)");
      assert.ok(!riderSaw.includes(digitsOf(driverPhone)), "nothing the rider was answered or sent carries the driver's number");
      assert.ok(!driverSaw.includes(digitsOf(riderPhone)), "nothing the driver was answered or sent carries the rider's number");
      for (const reply of [fromRider, fromDriver]) {
        const text = JSON.stringify(reply);
        assert.ok(!text.includes(digitsOf(riderPhone)) && !text.includes(digitsOf(driverPhone)) && !text.includes(digitsOf(VIRTUAL_NUMBER)), 'a call answer carries no number');
      }
    } finally {
      await riderSocket.close();
      await driverSocket.close();
    }
  });

  test("only the ride's rider and driver call, only while it is ACCEPTED or PICKED", async () => {
    const { rider, driver } = await pair();
    const stranger = await signUp(t);
    await verifiedPhone(t, provider, stranger);
    const requested = await bookRide(t, rider);
    assertError(await call(rider, requested.id), 409, 'RIDE_NOT_ACTIVE');
    const { booked } = await acceptedRide(t, rider, driver);
    assertError(await call(stranger, booked.id), 403, 'FORBIDDEN');
    assertError(await call(rider, 99_999_999), 404);
    assertOk(asReply(await apiOf(t, rider).send(routes.rides.cancel, { params: { rideId: booked.id }, body: { reason: 'plans changed' } })), 'cancel');
    assertError(await call(driver, booked.id), 409, 'RIDE_NOT_ACTIVE');
    const { booked: done } = await completedRide(t, rider, driver);
    assertError(await call(driver, done.id), 409, 'RIDE_NOT_ACTIVE');
  });

  test('both parties need a verified number, and the answer names neither', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const callsBefore = provider.calls.length;
    assertError(await call(rider, booked.id), 409, 'PHONE_NOT_VERIFIED');
    const riderPhone = await verifiedPhone(t, provider, rider);
    const noDriverPhone = await call(rider, booked.id);
    assertError(noDriverPhone, 409, 'PHONE_NOT_VERIFIED');
    assert.match(noDriverPhone.body.message, /driver has no verified phone/);
    const fromDriver = await call(driver, booked.id);
    assertError(fromDriver, 409, 'PHONE_NOT_VERIFIED');
    assert.ok(!JSON.stringify(fromDriver.body).includes(digitsOf(riderPhone)));
    assert.equal(provider.calls.length, callsBefore, 'nothing was dialled');
  });

  test('a provider that fails is 503 TELEPHONY_UNAVAILABLE; a caller has five calls per ride in ten minutes', async () => {
    const { rider, driver } = await pair();
    const { booked } = await acceptedRide(t, rider, driver);
    provider.mode = 'fail';
    try {
      assertError(await call(rider, booked.id), 503, 'TELEPHONY_UNAVAILABLE');
    } finally {
      provider.mode = 'answer';
    }
    for (let i = 2; i <= 5; i++) assertOk(await call(rider, booked.id), `call ${i}`);
    const limited = await call(rider, booked.id);
    assertError(limited, 429, 'RATE_LIMITED');
    assertOk(await call(driver, booked.id), 'the other party has calls of their own');
  });
});

test('without TELEPHONY_URL a call is 409 CALLS_NOT_CONFIGURED', async () => {
  const t = await createTestApp();
  try {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    assertError(asReply(await apiOf(t, rider).send(routes.safety.call, { params: { rideId: booked.id } })), 409, 'CALLS_NOT_CONFIGURED');
  } finally {
    await t.close();
  }
});
