import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { retryDelay } from '../../../src/modules/payments/refund-sender.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET, webhookEvent, webhookSignature } from '../../helpers/fake-razorpay.ts';
import { accept, assertError, assertOk, bookRide, eventsAbout, riderFee, setStatus } from '../../helpers/rides.ts';

// A ride is credited at most once, and whatever was paid beyond what the rider owes goes back
// through the provider's refund API: after a cancellation, for a second payment, at an operator's
// request. The provider is the stand-in of `npm run dev:provider`, over HTTP.

const ADMIN_EMAIL = 'refunds-operator@example.com';

describe('refunds', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let rider: TestUser;
  let driver: TestUser;
  let admin: TestUser;

  const order = (rideId: number, amountInInr: number) => call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr, rideId, paymentMode: 'UPI' } });
  const verify = (paid: { orderId: string; paymentId: string; signature: string }) => call(t.app, 'POST', '/payments/verify', { body: paid });
  const webhook = (body: string, eventId: string) =>
    call(t.app, 'POST', '/payments/webhook', { body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': webhookSignature(body), 'x-razorpay-event-id': eventId } });
  const rideOf = async (rideId: number) => (await call(t.app, 'GET', `/rides/status/${rideId}`, { token: rider.token })).body;
  const refundsOf = (paymentId: string) => provider.refunds.filter((refund) => refund.paymentId === paymentId);

  /** Orders the ride's fare and pays it at the provider's checkout; answers the signed payment. */
  async function payAtCheckout(rideId: number, amountInInr: number) {
    const created = await order(rideId, amountInInr);
    assertOk(created, 'order');
    return provider.pay(created.body.orderId);
  }

  /** A booked ride paid online up front. */
  async function paidRide() {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const paid = await payAtCheckout(ride.id, ride.fare);
    assertOk(await verify(paid), 'verify');
    return { ride, paid };
  }

  /** Until the provider has seen `count` refunds of the payment (they are sent once the cancellation has committed). */
  async function providerRefunds(paymentId: string, count = 1) {
    for (let waited = 0; refundsOf(paymentId).length < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return refundsOf(paymentId);
  }

  /** Takes a booked, paid ride to COMPLETED. */
  async function complete(ride: { id: number; startOtp: string; endOtp: string }) {
    assertOk(await accept(t, driver, ride.id), 'accept');
    assertOk(await setStatus(t, driver, ride.id, { status: 'PICKED', otp: ride.startOtp }), 'pickup');
    assertOk(await setStatus(t, driver, ride.id, { status: 'COMPLETED', otp: ride.endOtp }), 'complete');
  }

  /** Waits until the ride's refunded amount settles at `inr` (a provider's answer arrives after the cancellation). */
  async function refundedSettles(rideId: number, inr: number) {
    let shown = await rideOf(rideId);
    for (let waited = 0; shown.refundedAmountInInr !== inr && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      shown = await rideOf(rideId);
    }
    assert.equal(shown.refundedAmountInInr, inr);
  }

  before(async () => {
    provider = await new FakeRazorpay().start();
    t = await createTestApp({ adminEmails: new Set([ADMIN_EMAIL]), razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } });
    rider = await signUp(t, { role: 'RIDER' });
    driver = await signUp(t, { role: 'DRIVER' });
    admin = await signUp(t, { role: 'ADMIN', email: ADMIN_EMAIL });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('a ride paid while REQUESTED and cancelled by its rider is refunded in full, and the ride shows it', async () => {
    const { ride, paid } = await paidRide();
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token, body: { reason: 'plans changed' } });
    assertOk(cancelled, 'cancel');
    assert.equal(cancelled.body.cancellationFee, null);
    assert.equal(cancelled.body.refundedAmountInInr, ride.fare, 'the cancel answer counts the refund');
    assert.equal(cancelled.body.paymentStatus, 'PAID', 'paymentStatus keeps the contract values');

    const [refund] = await providerRefunds(paid.paymentId);
    assert.equal(refund.amount, ride.fare * 100, 'paise, through the refund API of the payment');
    assert.match(refund.idempotencyKey ?? '', /^[A-Za-z0-9_-]{10,}$/);
    assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
    assert.deepEqual(await eventsAbout(t, rider, ride.id), ['RIDE_REQUESTED', 'PAYMENT_RECEIVED', 'PAYMENT_REFUNDED']);
  });

  test('a paid ride cancelled by its rider after acceptance keeps the fee and refunds the rest', async () => {
    const { ride, paid } = await paidRide();
    assertOk(await accept(t, driver, ride.id), 'accept');
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token, body: {} });
    const fee = riderFee('ACCEPTED', ride.fare);
    assert.equal(cancelled.body.cancellationFee, fee);
    assert.equal(cancelled.body.refundedAmountInInr, ride.fare - fee);
    assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [(ride.fare - fee) * 100]);
  });

  test("a driver's cancellation of a paid ride refunds everything", async () => {
    const { ride, paid } = await paidRide();
    assertOk(await accept(t, driver, ride.id), 'accept');
    assertOk(await setStatus(t, driver, ride.id, { status: 'CANCELLED' }), 'driver cancels');
    assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [ride.fare * 100]);
    assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
  });

  test('a completed paid ride and a cancelled unpaid one refund nothing', async () => {
    const cash = await bookRide(t, rider, { paymentMode: 'CASH' });
    assertOk(await call(t.app, 'POST', `/rides/cancel/${cash.id}`, { token: rider.token }), 'cancel');
    assert.equal((await rideOf(cash.id)).refundedAmountInInr, 0);

    const { ride, paid } = await paidRide();
    await complete(ride);
    assert.equal((await rideOf(ride.id)).refundedAmountInInr, 0);
    assert.deepEqual(refundsOf(paid.paymentId), []);
  });

  test('a second order for a paid ride is a 409', async () => {
    const { ride } = await paidRide();
    assertError(await order(ride.id, ride.fare), 409, 'RIDE_ALREADY_PAID');
  });

  test('two open orders for one ride: the first payment pays it, the second is refunded in full at once', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const first = await order(ride.id, ride.fare);
    const second = await order(ride.id, ride.fare);
    const [paidFirst, paidSecond] = [await provider.pay(first.body.orderId), await provider.pay(second.body.orderId)];
    const replies = await Promise.all([verify(paidFirst), verify(paidSecond)]);
    for (const reply of replies) assert.equal(reply.body.success, true);
    const shown = await rideOf(ride.id);
    const [winner, loser] = shown.paymentReference === paidFirst.paymentId ? [paidFirst, paidSecond] : [paidSecond, paidFirst];
    assert.equal(shown.paymentReference, winner.paymentId, 'the ride keeps the reference of the payment that paid it');
    assert.match(replies[winner === paidFirst ? 1 : 0].body.message, /already paid.*refunded/);
    assert.deepEqual((await providerRefunds(loser.paymentId)).map((r) => r.amount), [ride.fare * 100]);
    assert.deepEqual(refundsOf(winner.paymentId), []);
    assert.equal(shown.refundedAmountInInr, ride.fare);
    assert.deepEqual(await eventsAbout(t, rider, ride.id), ['RIDE_REQUESTED', 'PAYMENT_RECEIVED', 'PAYMENT_REFUNDED'], 'credited once, refunded once');

    // The ride completes for its fare: nothing more goes back.
    await complete(ride);
    assert.equal(provider.refunds.filter((r) => [winner.paymentId, loser.paymentId].includes(r.paymentId)).length, 1);
  });

  test('a second payment that arrives by webhook is refunded the same way', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const first = await order(ride.id, ride.fare);
    const second = await order(ride.id, ride.fare);
    assertOk(await verify(await provider.pay(first.body.orderId)), 'first verify');
    const late = await provider.pay(second.body.orderId);
    const reply = await webhook(webhookEvent('payment.captured', second.body.orderId, late.paymentId, ride.fare * 100), `evt_dup_${ride.id}`);
    assert.equal(reply.body.status, 'processed');
    assert.deepEqual((await providerRefunds(late.paymentId)).map((r) => r.amount), [ride.fare * 100]);
    assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
  });

  test('a payment verified after its ride was cancelled is refunded down to the fee', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const created = await order(ride.id, ride.fare);
    assertOk(await accept(t, driver, ride.id), 'accept');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token }), 'cancel');
    const paid = await provider.pay(created.body.orderId);
    assertOk(await verify(paid), 'verify');
    const fee = riderFee('ACCEPTED', ride.fare);
    assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [(ride.fare - fee) * 100]);
    const shown = await rideOf(ride.id);
    assert.equal(shown.paymentStatus, 'PAID');
    assert.equal(shown.refundedAmountInInr, ride.fare - fee);
  });

  describe('when the provider does not take a refund', () => {
    test('a refund whose answer was lost is sent again with the same key, and the provider refunds once', async () => {
      const { ride, paid } = await paidRide();
      provider.failNext('refunds', 'slow');
      assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token }), 'cancel');
      // The provider made the refund but answers only after the service has given up waiting.
      const abandoned = provider.abandonedRequests;
      assert.equal((await providerRefunds(paid.paymentId)).length, 1);
      for (let waited = 0; provider.abandonedRequests === abandoned && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const requests = () => provider.refundRequests.filter((r) => r.paymentId === paid.paymentId);
      assert.equal(requests().length, 1);
      t.clock.advance(retryDelay(0));
      for (let waited = 0; requests().length < 2 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(requests().length, 2, 'retried without a restart');
      assert.equal(new Set(requests().map((r) => r.idempotencyKey)).size, 1, 'with the same idempotency key');
      assert.equal(refundsOf(paid.paymentId).length, 1, 'never refunded twice');
      assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
    });

    test('a refund the provider failed to take waits, counts on the ride, and is sent on the next start', async () => {
      const { ride, paid } = await paidRide();
      provider.failNext('refunds', 'error');
      const cancelled = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token });
      assert.equal(cancelled.body.refundedAmountInInr, ride.fare, 'owed to the rider from the moment of the cancellation');
      const requests = () => provider.refundRequests.filter((r) => r.paymentId === paid.paymentId);
      for (let waited = 0; requests().length < 1 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(refundsOf(paid.paymentId), []);

      t.clock.advance(retryDelay(0));
      await t.restart();
      assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [ride.fare * 100]);
      assert.equal(new Set(requests().map((r) => r.idempotencyKey)).size, 1);
      assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
    });

    test('a refund the provider refuses no longer counts, and an operator may refund again', async () => {
      const { ride, paid } = await paidRide();
      provider.failNext('refunds', 'refuse');
      assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token }), 'cancel');
      await refundedSettles(ride.id, 0);
      assert.deepEqual(refundsOf(paid.paymentId), []);
      const again = await call(t.app, 'POST', `/admin/rides/${ride.id}/refund`, { token: admin.token, body: { amountInInr: ride.fare, reason: 'the automatic refund was refused' } });
      assertOk(again, 'operator refund');
      assert.deepEqual(again.body.refunds.map((r: { status: string; reason: string }) => [r.reason, r.status]).slice(0, 1), [['cancellation', 'failed']]);
      assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [ride.fare * 100]);
    });

    test('a refund still pending at the provider is settled by its webhook, processed or failed', async () => {
      provider.refundSpeed = 'later';
      try {
        const first = await paidRide();
        const second = await paidRide();
        for (const { ride } of [first, second]) assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token }), 'cancel');
        const [processed] = await providerRefunds(first.paid.paymentId);
        const [failed] = await providerRefunds(second.paid.paymentId);
        assert.equal((await webhook(await provider.settleRefund(processed.id, 'processed'), `evt_${processed.id}`)).body.status, 'processed');
        assert.equal((await webhook(await provider.settleRefund(failed.id, 'failed'), `evt_${failed.id}`)).body.status, 'processed');
        await refundedSettles(first.ride.id, first.ride.fare);
        await refundedSettles(second.ride.id, 0);
      } finally {
        provider.refundSpeed = 'instant';
      }
    });
  });

  describe('an operator', () => {
    test("refunds part of a completed ride's payment through the provider, audited, up to what was paid", async () => {
      const { ride, paid } = await paidRide();
      await complete(ride);
      const refund = (amountInInr: number) => call(t.app, 'POST', `/admin/rides/${ride.id}/refund`, { token: admin.token, body: { amountInInr, reason: 'driver took a long detour' } });

      const partial = await refund(30);
      assertOk(partial, 'refund');
      assert.equal(partial.body.rideId, ride.id);
      assert.equal(partial.body.refundedAmountInInr, 30);
      assert.deepEqual(
        partial.body.payments.map((p: any) => [p.orderId.startsWith('order_'), p.amount, p.status, p.paymentId]),
        [[true, ride.fare * 100, 'completed', paid.paymentId]],
      );
      const [record] = partial.body.refunds;
      assert.deepEqual({ ...record, id: 0, status: 'x', providerRefundId: null, createdAt: '', updatedAt: '' }, {
        id: 0,
        paymentId: paid.paymentId,
        amount: 3000,
        status: 'x',
        reason: 'operator',
        note: 'driver took a long detour',
        requestedBy: admin.id,
        providerRefundId: null,
        createdAt: '',
        updatedAt: '',
      });
      assert.deepEqual((await providerRefunds(paid.paymentId)).map((r) => r.amount), [3000]);
      assert.equal((await rideOf(ride.id)).refundedAmountInInr, 30);

      const audit = await call(t.app, 'GET', `/admin/audit?action=ride.refund&targetId=${ride.id}`, { token: admin.token });
      assert.equal(audit.body.items.length, 1);
      assert.equal(audit.body.items[0].actorId, admin.id);
      assert.deepEqual(audit.body.items[0].before, { refundedAmountInInr: 0 });
      assert.equal(audit.body.items[0].after.refundedAmountInInr, 30);

      assertError(await refund(ride.fare - 30 + 1), 409, 'REFUND_EXCEEDS_PAYMENTS');
      assertOk(await refund(ride.fare - 30), 'the rest');
      assertError(await refund(1), 409, 'REFUND_EXCEEDS_PAYMENTS');
      assert.equal((await rideOf(ride.id)).refundedAmountInInr, ride.fare);
      assert.equal((await call(t.app, 'GET', `/admin/audit?action=ride.refund&targetId=${ride.id}`, { token: admin.token })).body.items.length, 2, 'refusals are not audited');
    });

    test('cannot refund a cash ride or an unknown one, and must give an amount and a reason', async () => {
      const cash = await bookRide(t, rider, { paymentMode: 'CASH' });
      const refund = (rideId: number | string, body: unknown) => call(t.app, 'POST', `/admin/rides/${rideId}/refund`, { token: admin.token, body });
      assertError(await refund(cash.id, { amountInInr: 1, reason: 'x' }), 409, 'REFUND_EXCEEDS_PAYMENTS');
      // The second is past the id columns' range (and past what a double holds exactly).
      for (const unknown of ['987654321', '9007199254740993']) assertError(await refund(unknown, { amountInInr: 1, reason: 'x' }), 404);
      for (const body of [{ amountInInr: 0, reason: 'x' }, { amountInInr: 1.5, reason: 'x' }, { amountInInr: 10 }, { amountInInr: 10, reason: '  ' }]) {
        assertError(await refund(cash.id, body), 400);
      }
    });
  });
});
