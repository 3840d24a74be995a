import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET } from '../../helpers/fake-razorpay.ts';
import { accept, assertError, assertOk, bookRide, setStatus } from '../../helpers/rides.ts';

// POST /rides/{id}/payment-mode: the rider changes how they pay. When the online checkout cannot
// be reached after the ride, the rider pays the driver in cash instead: the ride is PAID there and
// then, as a cash ride is at completion, and an online payment that still arrives is refunded whole.

describe('the rider changes how they pay', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let rider: TestUser;
  let driver: TestUser;

  before(async () => {
    provider = await new FakeRazorpay().start();
    t = await createTestApp({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } });
    rider = await signUp(t);
    driver = await signUp(t, { role: 'DRIVER' });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  const change = (user: TestUser, rideId: number, paymentMode: string) => call(t.app, 'POST', `/rides/${rideId}/payment-mode`, { token: user.token, body: { paymentMode } });
  const view = async (user: TestUser, rideId: number) => (await call(t.app, 'GET', `/rides/status/${rideId}`, { token: user.token })).body;

  async function completed(paymentMode = 'UPI') {
    const ride = await bookRide(t, rider, { paymentMode });
    assertOk(await accept(t, driver, ride.id));
    assertOk(await setStatus(t, driver, ride.id, { status: 'PICKED', otp: ride.startOtp }));
    assertOk(await setStatus(t, driver, ride.id, { status: 'COMPLETED', otp: ride.endOtp }));
    return ride;
  }

  test('while the ride is open any mode; a ride switched to cash is paid at completion', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const switched = await change(rider, ride.id, 'card');
    assertOk(switched);
    assert.equal(switched.body.paymentMode, 'CARD');
    assertOk(await change(rider, ride.id, 'CASH'));
    assertOk(await accept(t, driver, ride.id));
    assertOk(await setStatus(t, driver, ride.id, { status: 'PICKED', otp: ride.startOtp }));
    const done = await setStatus(t, driver, ride.id, { status: 'COMPLETED', otp: ride.endOtp });
    assert.deepEqual([done.body.paymentMode, done.body.paymentStatus], ['CASH', 'PAID']);
  });

  test('after the ride, cash pays the driver there and then: PAID, and the driver sees cash', async () => {
    const ride = await completed();
    assert.equal((await view(rider, ride.id)).paymentStatus, 'PENDING');
    assertError(await change(rider, ride.id, 'CARD'), 409, 'PAYMENT_MODE_FIXED');
    const paid = await change(rider, ride.id, 'CASH');
    assertOk(paid);
    assert.deepEqual([paid.body.paymentMode, paid.body.paymentStatus], ['CASH', 'PAID']);
    assert.deepEqual([(await view(driver, ride.id)).paymentMode, (await view(driver, ride.id)).paymentStatus], ['CASH', 'PAID']);
    assertError(await change(rider, ride.id, 'CASH'), 409, 'RIDE_ALREADY_PAID');
    assertError(await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { rideId: ride.id, amountInInr: ride.fare, paymentMode: 'UPI' } }), 409, 'RIDE_ALREADY_PAID');
  });

  test('an online order opened before the switch and paid after it is refunded whole', async () => {
    const ride = await completed();
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { rideId: ride.id, amountInInr: ride.fare, paymentMode: 'UPI' } });
    assertOk(order);
    assertOk(await change(rider, ride.id, 'CASH'));
    const signed = await provider.pay(order.body.orderId);
    assertOk(await call(t.app, 'POST', '/payments/verify', { body: signed }));
    let shown = await view(rider, ride.id);
    for (let waited = 0; shown.refundedAmountInInr !== ride.fare && waited < 5_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      shown = await view(rider, ride.id);
    }
    assert.equal(shown.refundedAmountInInr, ride.fare, 'the online payment goes back: the driver was paid in cash');
    // The provider hears of the refund once its transaction committed.
    const refunds = () => provider.refunds.filter((refund) => refund.paymentId === signed.paymentId).map((refund) => refund.amount);
    for (let waited = 0; refunds().length === 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(refunds(), [ride.fare * 100]);
  });

  test('refused: a cancelled ride, someone else\'s ride, a driver, an unknown ride, an unknown mode', async () => {
    const cancelled = await bookRide(t, rider);
    assertOk(await accept(t, driver, cancelled.id));
    assertOk(await call(t.app, 'POST', `/rides/cancel/${cancelled.id}`, { token: rider.token }));
    assertError(await change(rider, cancelled.id, 'CASH'), 409, 'PAYMENT_MODE_FIXED');
    const ride = await bookRide(t, rider);
    assertError(await change(await signUp(t), ride.id, 'CASH'), 403);
    assertError(await change(driver, ride.id, 'CASH'), 403);
    assertError(await change(rider, 999_999, 'CASH'), 404);
    assertError(await change(rider, ride.id, 'BITCOIN'), 400);
    assert.equal((await view(rider, ride.id)).paymentMode, ride.paymentMode, 'nothing changed');
  });
});
