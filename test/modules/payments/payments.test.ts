import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import {
  checkoutSignature,
  FakeRazorpay,
  KEY_ID,
  KEY_SECRET,
  paymentId,
  WEBHOOK_SECRET,
  webhookEvent,
  webhookSignature,
} from '../../helpers/fake-razorpay.ts';

async function bookRide(t: TestApp, rider: TestUser, paymentMode = 'UPI') {
  const reply = await call(t.app, 'POST', '/rides/book', {
    token: rider.token,
    body: { pickupLat: 12.97, pickupLon: 77.59, dropLat: 12.93, dropLon: 77.62, paymentMode },
  });
  assert.equal(reply.status, 200);
  return reply.body;
}

async function completeRide(t: TestApp, ride: { id: number; startOtp: string; endOtp: string }, driver: TestUser) {
  const steps = [
    { status: 'ACCEPTED', driverId: String(driver.id) },
    { status: 'PICKED', otp: ride.startOtp },
    { status: 'COMPLETED', otp: ride.endOtp },
  ];
  let reply;
  for (const body of steps) {
    reply = await call(t.app, 'POST', `/rides/status/${ride.id}`, { token: driver.token, body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  }
  return reply?.body;
}

const paymentNotices = async (t: TestApp, user: TestUser) =>
  (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body.notifications.filter(
    (n: { eventType: string }) => n.eventType === 'PAYMENT_RECEIVED',
  );

const rideOf = async (t: TestApp, user: TestUser, rideId: number) =>
  (await call(t.app, 'GET', '/rides/history', { token: user.token })).body.find((r: { id: number }) => r.id === rideId);

describe('payments without provider configuration', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('orders, verification and webhooks answer 503', async () => {
    const user = await signUp(t);
    const order = await call(t.app, 'POST', '/payments/order', { token: user.token, body: { amountInInr: 100 } });
    assert.equal(order.status, 503);
    assert.equal(order.body.code, 'PAYMENTS_NOT_CONFIGURED');
    const verify = await call(t.app, 'POST', '/payments/verify', { body: { orderId: 'order_x', paymentId: 'pay_x', signature: 'ab' } });
    assert.equal(verify.status, 503);
    const webhook = await call(t.app, 'POST', '/payments/webhook', { body: { event: 'payment.captured' } });
    assert.equal(webhook.status, 503);
  });
});

describe('payments', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let rider: TestUser;
  let driver: TestUser;

  const order = (user: TestUser, body: Record<string, unknown>) => call(t.app, 'POST', '/payments/order', { token: user.token, body });
  const verify = (body: Record<string, unknown>) => call(t.app, 'POST', '/payments/verify', { body });
  const webhook = (body: string, { signature = webhookSignature(body), eventId }: { signature?: string; eventId?: string } = {}) =>
    call(t.app, 'POST', '/payments/webhook', {
      body,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, ...(eventId ? { 'x-razorpay-event-id': eventId } : {}) },
    });
  const session = async (sessionId: string) => (await call(t.app, 'GET', `/payments/session/${sessionId}`)).body;

  before(async () => {
    provider = await new FakeRazorpay().start();
    t = await createTestApp({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } });
    rider = await signUp(t, { role: 'RIDER' });
    driver = await signUp(t, { role: 'DRIVER' });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('an order is created at the provider in paise with a unique receipt and a pending session', async () => {
    const before = provider.orders.length;
    const replies = await Promise.all([100, 250, 999].map((amountInInr) => order(rider, { amountInInr, rideSummary: 'MG Road → Airport', paymentMode: 'upi' })));
    for (const [i, amountInInr] of [100, 250, 999].entries()) {
      const reply = replies[i];
      assert.equal(reply.status, 200);
      assert.deepEqual(Object.keys(reply.body).sort(), ['amount', 'currency', 'keyId', 'orderId', 'sessionId']);
      assert.equal(reply.body.amount, amountInInr * 100);
      assert.equal(reply.body.currency, 'INR');
      assert.equal(reply.body.keyId, KEY_ID);
      const sent = provider.orders.find((o) => o.id === reply.body.orderId)!;
      assert.equal(sent.amount, amountInInr * 100);
      assert.equal(sent.currency, 'INR');
      assert.equal(sent.notes.sessionId, reply.body.sessionId);
      assert.equal(sent.notes.rideSummary, 'MG Road → Airport');
      assert.deepEqual(await session(reply.body.sessionId), {
        sessionId: reply.body.sessionId,
        status: 'pending',
        amount: amountInInr * 100,
        currency: 'INR',
        paymentMode: 'UPI',
      });
    }
    const receipts = provider.orders.slice(before).map((o) => o.receipt);
    assert.equal(new Set(receipts).size, 3, 'receipts are unique');
    assert.ok(receipts.every((r) => r.length <= 40));
  });

  test('amountInInr must be a positive integer', async () => {
    for (const amountInInr of [0, -5, 1.5, '100', null, undefined]) {
      const reply = await order(rider, { amountInInr });
      assert.equal(reply.status, 400, String(amountInInr));
    }
    assert.equal((await call(t.app, 'POST', '/payments/order', { body: { amountInInr: 10 } })).status, 401);
  });

  test('an unknown payment mode for an online order is a 400', async () => {
    assert.equal((await order(rider, { amountInInr: 10, paymentMode: 'CASH' })).status, 400);
    assert.equal((await order(rider, { amountInInr: 10, paymentMode: 'BITCOIN' })).status, 400);
  });

  test('the session endpoint reveals nothing else, and an unknown session is a 404', async () => {
    const created = await order(rider, { amountInInr: 42 });
    const reply = await call(t.app, 'GET', `/payments/session/${created.body.sessionId}`);
    assert.deepEqual(Object.keys(reply.body).sort(), ['amount', 'currency', 'paymentMode', 'sessionId', 'status']);
    assert.equal(reply.body.paymentMode, null);
    assert.equal((await call(t.app, 'GET', '/payments/session/ps_doesnotexist')).status, 404);
  });

  test('a valid signature completes the session, pays the ride and notifies once, even when verified again', async () => {
    const ride = await bookRide(t, rider);
    const created = await order(rider, { amountInInr: ride.fare, rideId: ride.id, paymentMode: 'UPI' });
    assert.equal(created.status, 200);
    const pay = paymentId();
    const body = { orderId: created.body.orderId, paymentId: pay, signature: checkoutSignature(created.body.orderId, pay) };
    const first = await verify(body);
    assert.equal(first.status, 200);
    assert.equal(first.body.success, true);
    assert.equal(typeof first.body.message, 'string');
    assert.equal((await session(created.body.sessionId)).status, 'completed');
    const paid = await rideOf(t, rider, ride.id);
    assert.equal(paid.paymentStatus, 'PAID');
    assert.equal(paid.paymentReference, pay);

    const replays = await Promise.all([verify(body), verify(body), verify(body)]);
    assert.ok(replays.every((r) => r.status === 200 && r.body.success === true));
    const notices = await paymentNotices(t, rider);
    assert.equal(notices.filter((n: { rideId: number }) => n.rideId === ride.id).length, 1, 'credited once');
  });

  test('a bad, foreign or cross-order signature is refused and the session stays pending', async () => {
    const a = await order(rider, { amountInInr: 10 });
    const b = await order(rider, { amountInInr: 20 });
    const pay = paymentId();
    const attempts = [
      { orderId: a.body.orderId, paymentId: pay, signature: 'deadbeef' },
      { orderId: a.body.orderId, paymentId: pay, signature: checkoutSignature(a.body.orderId, pay, 'not-the-key-secret') },
      { orderId: a.body.orderId, paymentId: pay, signature: checkoutSignature(b.body.orderId, pay) },
      { orderId: a.body.orderId, paymentId: paymentId(), signature: checkoutSignature(a.body.orderId, pay) },
      { orderId: a.body.orderId, paymentId: pay, signature: 'not hex at all' },
    ];
    for (const attempt of attempts) {
      const reply = await verify(attempt);
      assert.equal(reply.status, 400, JSON.stringify(attempt));
      assert.equal(reply.body.success, false);
      assert.equal(typeof reply.body.message, 'string');
    }
    assert.equal((await session(a.body.sessionId)).status, 'pending');
    assert.equal((await session(b.body.sessionId)).status, 'pending');
  });

  test('a valid signature with one hex character more or less is refused (odd-length hex decodes short)', async () => {
    const created = await order(rider, { amountInInr: 11 });
    const paid = await provider.pay(created.body.orderId);
    for (const signature of [`${paid.signature}0`, `${paid.signature}f`, paid.signature.slice(0, -1), `${paid.signature}${paid.signature}`]) {
      const reply = await verify({ orderId: paid.orderId, paymentId: paid.paymentId, signature });
      assert.equal(reply.status, 400, signature);
      assert.equal(reply.body.code, 'INVALID_SIGNATURE');
    }
    assert.equal((await session(created.body.sessionId)).status, 'pending');
    assert.equal((await verify({ ...paid })).status, 200, 'the exact signature still works');
  });

  test('a correctly signed order id this service never created is refused', async () => {
    const pay = paymentId();
    const reply = await verify({ orderId: 'order_madeup123', paymentId: pay, signature: checkoutSignature('order_madeup123', pay) });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.success, false);
  });

  test('verify needs orderId, paymentId and signature', async () => {
    for (const body of [{}, { orderId: 'o', paymentId: 'p' }, { orderId: 'o', signature: 's' }, { paymentId: 'p', signature: 's' }]) {
      assert.equal((await verify(body)).status, 400, JSON.stringify(body));
    }
  });

  test("a rideId must be the caller's unpaid ride, for exactly what it owes", async () => {
    const ride = await bookRide(t, rider);
    const stranger = await signUp(t, { role: 'RIDER' });
    assert.equal((await order(stranger, { amountInInr: ride.fare, rideId: ride.id })).status, 403);
    assert.equal((await order(rider, { amountInInr: ride.fare, rideId: 987654 })).status, 404);
    const wrongAmount = await order(rider, { amountInInr: ride.fare - 1, rideId: ride.id });
    assert.equal(wrongAmount.status, 400);
    assert.equal(wrongAmount.body.code, 'AMOUNT_MISMATCH');

    const cash = await bookRide(t, rider, 'CASH');
    const completed = await completeRide(t, cash, driver);
    assert.equal(completed.paymentStatus, 'PAID', 'the driver collected the cash');
    assert.equal((await order(rider, { amountInInr: cash.fare, rideId: cash.id })).status, 409);
  });

  test('a cancelled ride owes its cancellation fee', async () => {
    const ride = await bookRide(t, rider);
    await call(t.app, 'POST', `/rides/status/${ride.id}`, { token: driver.token, body: { status: 'ACCEPTED', driverId: String(driver.id) } });
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token, body: { reason: 'plans changed' } });
    const fee = cancelled.body.cancellationFee;
    assert.ok(fee > 0);
    assert.equal((await order(rider, { amountInInr: ride.fare, rideId: ride.id })).status, 400);
    assert.equal((await order(rider, { amountInInr: fee, rideId: ride.id })).status, 200);
  });

  test('an online ride stays PENDING at completion until its payment is verified', async () => {
    const ride = await bookRide(t, rider, 'upi');
    const completed = await completeRide(t, ride, driver);
    assert.equal(completed.paymentMode, 'UPI');
    assert.equal(completed.paymentStatus, 'PENDING');
    const created = await order(rider, { amountInInr: ride.fare, rideId: ride.id });
    const pay = paymentId();
    await verify({ orderId: created.body.orderId, paymentId: pay, signature: checkoutSignature(created.body.orderId, pay) });
    assert.equal((await rideOf(t, rider, ride.id)).paymentStatus, 'PAID');
  });

  describe('webhooks', () => {
    test('a signed payment.captured completes the session and pays the ride', async () => {
      const ride = await bookRide(t, rider);
      const created = await order(rider, { amountInInr: ride.fare, rideId: ride.id });
      const pay = paymentId();
      const reply = await webhook(webhookEvent('payment.captured', created.body.orderId, pay, created.body.amount), { eventId: 'evt_captured_1' });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, 'processed');
      assert.equal((await session(created.body.sessionId)).status, 'completed');
      const paid = await rideOf(t, rider, ride.id);
      assert.equal(paid.paymentStatus, 'PAID');
      assert.equal(paid.paymentReference, pay);
    });

    test('a bad signature changes nothing', async () => {
      const created = await order(rider, { amountInInr: 15 });
      const body = webhookEvent('payment.captured', created.body.orderId, paymentId(), created.body.amount);
      for (const signature of [webhookSignature(body, 'wrong-secret'), '', webhookSignature(`${body} `)]) {
        const reply = await webhook(body, { signature, eventId: `evt_bad_${signature.length}` });
        assert.equal(reply.status, 400);
      }
      const unsigned = await call(t.app, 'POST', '/payments/webhook', { body, headers: { 'content-type': 'application/json' } });
      assert.equal(unsigned.status, 400);
      assert.equal((await session(created.body.sessionId)).status, 'pending');
    });

    test('a webhook signature with one extra hex character is refused', async () => {
      const created = await order(rider, { amountInInr: 16 });
      const body = webhookEvent('payment.captured', created.body.orderId, paymentId(), created.body.amount);
      assert.equal((await webhook(body, { signature: `${webhookSignature(body)}0`, eventId: 'evt_long_signature' })).status, 400);
      assert.equal((await session(created.body.sessionId)).status, 'pending');
    });

    test('a redelivered event is handled once', async () => {
      const payer = await signUp(t, { role: 'RIDER' });
      const created = await order(payer, { amountInInr: 30 });
      const body = webhookEvent('payment.captured', created.body.orderId, paymentId(), created.body.amount);
      assert.equal((await webhook(body, { eventId: 'evt_dup' })).body.status, 'processed');
      assert.equal((await webhook(body, { eventId: 'evt_dup' })).body.status, 'duplicate');
      assert.equal((await paymentNotices(t, payer)).length, 1);
    });

    test('a failure arriving after the capture does not undo it', async () => {
      const ride = await bookRide(t, rider);
      const created = await order(rider, { amountInInr: ride.fare, rideId: ride.id });
      const pay = paymentId();
      await webhook(webhookEvent('payment.captured', created.body.orderId, pay, created.body.amount), { eventId: 'evt_order_1' });
      await webhook(webhookEvent('payment.failed', created.body.orderId, paymentId(), created.body.amount), { eventId: 'evt_order_2' });
      assert.equal((await session(created.body.sessionId)).status, 'completed');
      assert.equal((await rideOf(t, rider, ride.id)).paymentStatus, 'PAID');
    });

    test('a failed payment fails the session and the ride, and a later capture completes both', async () => {
      const ride = await bookRide(t, rider);
      const created = await order(rider, { amountInInr: ride.fare, rideId: ride.id });
      await webhook(webhookEvent('payment.failed', created.body.orderId, paymentId(), created.body.amount), { eventId: 'evt_fail_1' });
      assert.equal((await session(created.body.sessionId)).status, 'failed');
      assert.equal((await rideOf(t, rider, ride.id)).paymentStatus, 'FAILED');
      await webhook(webhookEvent('order.paid', created.body.orderId, paymentId(), created.body.amount), { eventId: 'evt_fail_2' });
      assert.equal((await session(created.body.sessionId)).status, 'completed');
      assert.equal((await rideOf(t, rider, ride.id)).paymentStatus, 'PAID');
    });

    test('verify and webhook for the same payment credit once', async () => {
      const payer = await signUp(t, { role: 'RIDER' });
      const created = await order(payer, { amountInInr: 75 });
      const pay = paymentId();
      await Promise.all([
        verify({ orderId: created.body.orderId, paymentId: pay, signature: checkoutSignature(created.body.orderId, pay) }),
        webhook(webhookEvent('payment.captured', created.body.orderId, pay, created.body.amount), { eventId: 'evt_both' }),
      ]);
      assert.equal((await paymentNotices(t, payer)).length, 1);
    });

    test('events for unknown orders, other event types and wrong amounts are ignored', async () => {
      const created = await order(rider, { amountInInr: 12 });
      const unknown = await webhook(webhookEvent('payment.captured', 'order_unknown', paymentId(), 1200), { eventId: 'evt_unknown' });
      assert.equal(unknown.body.status, 'ignored');
      const other = JSON.stringify({ event: 'refund.created', payload: {} });
      assert.equal((await webhook(other, { eventId: 'evt_other' })).body.status, 'ignored');
      const wrongAmount = await webhook(webhookEvent('payment.captured', created.body.orderId, paymentId(), 1), { eventId: 'evt_amount' });
      assert.equal(wrongAmount.body.status, 'ignored');
      assert.equal((await session(created.body.sessionId)).status, 'pending');
    });

    test('a signed body that is not JSON is a 400', async () => {
      const reply = await webhook('{not json');
      assert.equal(reply.status, 400);
    });

    test('a signed body that is JSON but not an object is a 400, never a 5xx', async () => {
      for (const body of ['null', '0', '"payment.captured"', '[]', '[{"event":"payment.captured"}]', 'true']) {
        const reply = await webhook(body, { eventId: `evt_not_an_object_${body.length}` });
        assert.deepEqual([reply.status, reply.body.code], [400, 'MALFORMED_EVENT'], body);
      }
    });

    test('an event without an id is handled once per signed body', async () => {
      const payer = await signUp(t, { role: 'RIDER' });
      const created = await order(payer, { amountInInr: 31 });
      const body = webhookEvent('payment.captured', created.body.orderId, paymentId(), created.body.amount);
      assert.equal((await webhook(body)).body.status, 'processed');
      assert.equal((await webhook(body)).body.status, 'duplicate');
      assert.equal((await paymentNotices(t, payer)).length, 1);
      const other = webhookEvent('payment.failed', 'order_unknown', paymentId(), 100);
      assert.equal((await webhook(other)).body.status, 'ignored', 'another body is another event');
    });
  });

  describe('when the provider misbehaves', () => {
    test('a provider error is a 503 and leaves no session', async () => {
      provider.failNext('orders', 'error');
      const reply = await order(rider, { amountInInr: 10 });
      assert.equal(reply.status, 503);
    });

    test('a connection reset is retried once', async () => {
      provider.failNext('orders', 'reset');
      const before = provider.orders.length;
      const reply = await order(rider, { amountInInr: 10 });
      assert.equal(reply.status, 200);
      assert.equal(provider.orders.length, before + 1);
    });

    test('a slow provider times out with a 503', async () => {
      provider.failNext('orders', 'slow');
      const started = Date.now();
      const reply = await order(rider, { amountInInr: 10 });
      assert.equal(reply.status, 503);
      assert.ok(Date.now() - started < 5_900, 'the service gave up before the provider answered');
    });
  });
});

describe('an unreachable provider', () => {
  let t: TestApp;
  before(async () => {
    const gone = await new FakeRazorpay().start();
    const url = gone.url;
    await gone.close();
    t = await createTestApp({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: url, webhookSecret: WEBHOOK_SECRET } });
  });
  after(() => t.close());

  test('orders answer 503', async () => {
    const user = await signUp(t);
    const reply = await call(t.app, 'POST', '/payments/order', { token: user.token, body: { amountInInr: 10 } });
    assert.equal(reply.status, 503);
    assert.equal(reply.body.code, 'PAYMENT_PROVIDER_UNAVAILABLE');
  });
});
