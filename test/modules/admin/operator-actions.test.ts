import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET } from '../../helpers/fake-razorpay.ts';
import { accept, assertOk, bookRide, setStatus } from '../../helpers/rides.ts';
import { auditOf, operatorApp, type OperatorApp } from './operator.ts';

// An operator's action is audited by the service that performs it, whichever route it came by: an
// ADMIN cancelling or moving a ride through the riders' and drivers' own endpoints is recorded as
// an operator's step, with the request id the service gave the request and, apart, the id the
// client sent.

describe('operator actions through the rides endpoints', () => {
  let op: OperatorApp;
  let provider: FakeRazorpay;
  before(async () => {
    provider = await new FakeRazorpay().start();
    op = await operatorApp({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } });
  });
  after(async () => {
    await op.t.close();
    await provider.close();
  });

  const timelineOf = async (rideId: number) => (await call(op.t.app, 'GET', `/admin/rides/${rideId}`, { token: op.admin.token })).body.timeline as Array<Record<string, any>>;

  test('an ADMIN cancelling a paid ride with POST /rides/cancel/{id} is audited, and the refund and the timeline name the operator', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: ride.fare, rideId: ride.id, paymentMode: 'UPI' } });
    assertOk(order, 'order');
    assertOk(await call(t.app, 'POST', '/payments/verify', { body: await provider.pay(order.body.orderId) }), 'verify');

    // A client may send any X-Request-Id, the id of someone else's request included.
    const reply = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: admin.token, body: { reason: 'fraud check' }, headers: { 'x-request-id': 'looks-like-another-entry' } });
    assertOk(reply, 'cancel');
    assert.equal(reply.body.cancelledBy, 'admin');

    const [entry, ...more] = await auditOf(t, admin, 'ride', ride.id);
    assert.deepEqual(more, []);
    assert.equal(entry.action, 'ride.cancel');
    assert.equal(entry.actorId, admin.id);
    assert.equal(entry.requestId, reply.headers['x-request-id'], "the entry's request id is the service's");
    assert.equal(entry.clientRequestId, 'looks-like-another-entry', "the client's, apart and labelled");
    assert.deepEqual([entry.before.status, entry.after.status, entry.after.cancelledBy], ['REQUESTED', 'CANCELLED', 'admin']);

    const timeline = await timelineOf(ride.id);
    assert.equal(timeline.find((e) => e.event === 'cancelled')?.requestedBy, admin.id);
    const refund = timeline.find((e) => e.event === 'refund');
    assert.deepEqual({ reason: refund?.reason, requestedBy: refund?.requestedBy, amountInInr: refund?.amountInInr }, { reason: 'cancellation', requestedBy: admin.id, amountInInr: ride.fare });
  });

  test('an ADMIN accepting for a driver with POST /rides/status/{id}, then picking up and completing, is audited step by step', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const ride = await bookRide(t, rider);
    const accepted = await setStatus(t, admin, ride.id, { status: 'ACCEPTED', driverId: driver.id });
    assertOk(accepted, 'accept for the driver');
    assertOk(await setStatus(t, admin, ride.id, { status: 'PICKED', otp: ride.startOtp }), 'pickup');
    assertOk(await setStatus(t, admin, ride.id, { status: 'COMPLETED', otp: ride.endOtp }), 'complete');

    const entries = (await auditOf(t, admin, 'ride', ride.id)).reverse();
    assert.deepEqual(entries.map((e) => [e.action, e.actorId]), [['ride.accept', admin.id], ['ride.pickup', admin.id], ['ride.complete', admin.id]]);
    assert.equal(entries[0].requestId, accepted.headers['x-request-id']);
    assert.deepEqual([entries[0].before.driverId, entries[0].after.driverId, entries[0].after.status], [null, driver.id, 'ACCEPTED']);
    assert.ok(!JSON.stringify(entries).includes(rider.name), 'no names in the trail');

    const timeline = await timelineOf(ride.id);
    for (const event of ['accepted', 'picked_up', 'completed']) assert.equal(timeline.find((e) => e.event === event)?.requestedBy, admin.id, event);
  });

  test("a rider's and a driver's own steps are not operator actions: nothing is audited, and the timeline names no operator", async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const ride = await bookRide(t, rider);
    assertOk(await accept(t, driver, ride.id), 'accept');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token }), 'cancel');
    assert.deepEqual(await auditOf(t, admin, 'ride', ride.id), []);
    const timeline = await timelineOf(ride.id);
    assert.deepEqual(timeline.filter((e) => 'requestedBy' in e).map((e) => e.requestedBy), [null, null]);
  });
});
