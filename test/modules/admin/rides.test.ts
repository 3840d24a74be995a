import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../../helpers/app.ts';
import { driverAt, kmNorth, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { signUp } from '../../helpers/factories.ts';
import { checkoutSignature, FakeRazorpay, KEY_ID, KEY_SECRET, paymentId, WEBHOOK_SECRET } from '../../helpers/fake-razorpay.ts';
import { acceptedRide, assertError, assertOk, bookRide, eventsAbout, riderFee, setStatus } from '../../helpers/rides.ts';
import { auditOf, operatorApp, type OperatorApp } from './operator.ts';

const SECOND = 1_000;
const BROADCAST = { mode: 'broadcast' as const, batchMs: 200, offerTtlMs: 15_000, maxMs: 120_000 };

describe('operator API: rides', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ dispatch: BROADCAST });
  });
  after(() => op.t.close());

  const list = async (query: string) => {
    const reply = await call(op.t.app, 'GET', `/admin/rides?${query}`, { token: op.admin.token });
    assertOk(reply, query);
    return reply.body as { items: Array<{ id: number; status: string; riderId: number; driverId: number | null; riderName: string }>; nextCursor: string | null };
  };

  test('rides are searched by status, rider, driver and booking time, newest first, a page at a time', async () => {
    const { t } = op;
    const [rider, other] = [await signUp(t), await signUp(t)];
    const driver = await signUp(t, { role: 'DRIVER' });
    const first = await bookRide(t, rider);
    t.clock.advance(60 * SECOND);
    const { booked: second } = await acceptedRide(t, rider, driver);
    t.clock.advance(60 * SECOND);
    const third = await bookRide(t, other);

    const mine = await list(`riderId=${rider.id}`);
    assert.deepEqual(mine.items.map((ride) => ride.id), [second.id, first.id]);
    assert.equal(mine.items[0].riderName, rider.name);
    assert.equal(mine.nextCursor, null);
    assert.ok(!('startOtp' in mine.items[0]) && !('endOtp' in mine.items[0]), 'operators see no ride codes');
    assert.deepEqual((await list(`driverId=${driver.id}`)).items.map((ride) => ride.id), [second.id]);
    assert.deepEqual((await list(`status=ACCEPTED&riderId=${rider.id}`)).items.map((ride) => ride.id), [second.id]);
    const from = second.createdAt;
    assert.deepEqual((await list(`from=${from}&to=${third.createdAt}`)).items.map((ride) => ride.id), [second.id], 'from inclusive, to exclusive');

    const page = await list('limit=2');
    assert.deepEqual(page.items.map((ride) => ride.id), [third.id, second.id]);
    assert.equal(page.nextCursor, String(second.id));
    assert.equal((await list(`limit=2&cursor=${page.nextCursor}`)).items[0].id, first.id);
  });

  test('bad filters are 400', async () => {
    for (const query of ['status=LOST', 'riderId=0', 'riderId=abc', 'from=yesterday', 'to=2026-13-01T00:00:00Z', 'from=2026-12-31T23:59:60Z', 'limit=500', 'cursor=-1']) {
      assertError(await call(op.t.app, 'GET', `/admin/rides?${query}`, { token: op.admin.token }), 400);
    }
  });

  test('an operator cancels a ride under way: no fee for the rider, both parties told, one audit entry', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const reply = await call(t.app, 'POST', `/admin/rides/${booked.id}/cancel`, { token: admin.token, body: { reason: ' Driver reported a breakdown ' } });
    assertOk(reply);
    assert.equal(reply.body.status, 'CANCELLED');
    assert.equal(reply.body.cancelledBy, 'admin');
    assert.equal(reply.body.cancellationFee, null);
    assert.equal(reply.body.cancellationReason, 'Driver reported a breakdown');
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'RIDE_CANCELLED']);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_CANCELLED']);

    const [entry, ...more] = await auditOf(t, admin, 'ride', booked.id);
    assert.deepEqual(more, []);
    assert.equal(entry.action, 'ride.cancel');
    assert.equal(entry.actorId, admin.id);
    assert.equal(entry.requestId, reply.headers['x-request-id']);
    assert.equal(entry.before.status, 'ACCEPTED');
    assert.equal(entry.before.cancelledBy, null);
    assert.deepEqual(
      { status: entry.after.status, cancelledBy: entry.after.cancelledBy, cancellationFee: entry.after.cancellationFee, cancellationReason: entry.after.cancellationReason },
      { status: 'CANCELLED', cancelledBy: 'admin', cancellationFee: null, cancellationReason: 'Driver reported a breakdown' },
    );
    assert.ok(!JSON.stringify(entry).includes(rider.name), 'no names in the trail');

    assertError(await call(t.app, 'POST', `/admin/rides/${booked.id}/cancel`, { token: admin.token, body: { reason: 'again' } }), 409, 'RIDE_FINISHED');
    assert.equal((await auditOf(t, admin, 'ride', booked.id)).length, 1, 'a refused cancellation is not audited');
  });

  test("an operator's cancellation of their own booking is still the operator's: no fee", async () => {
    const { t, admin } = op;
    const driver = await signUp(t, { role: 'DRIVER' });
    // The same booking cancelled through the rider's own endpoint would cost this much.
    const { booked } = await acceptedRide(t, admin, driver);
    assert.ok(riderFee('ACCEPTED', booked.fare) > 0);
    const reply = await call(t.app, 'POST', `/admin/rides/${booked.id}/cancel`, { token: admin.token, body: { reason: 'test booking' } });
    assertOk(reply);
    assert.equal(reply.body.cancelledBy, 'admin');
    assert.equal(reply.body.cancellationFee, null);
  });

  test('cancelling needs a reason and a ride that exists', async () => {
    const { t, admin } = op;
    const ride = await bookRide(t, await signUp(t));
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(601) }, { reason: 5 }]) {
      assertError(await call(t.app, 'POST', `/admin/rides/${ride.id}/cancel`, { token: admin.token, body }), 400);
    }
    assertError(await call(t.app, 'POST', '/admin/rides/99999999/cancel', { token: admin.token, body: { reason: 'gone' } }), 404);
    assertError(await call(t.app, 'GET', '/admin/rides/99999999', { token: admin.token }), 404);
    assert.equal((await auditOf(t, admin, 'ride', ride.id)).length, 0);
  });
});

describe('operator API: one ride and its timeline', () => {
  let op: OperatorApp;
  let provider: FakeRazorpay;
  before(async () => {
    provider = await new FakeRazorpay().start();
    op = await operatorApp({
      dispatch: { mode: 'nearest', batchMs: 50, offerTtlMs: 15_000, maxMs: 120_000 },
      razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET },
    });
  });
  after(async () => {
    await op.t.close();
    await provider.close();
  });

  test('the whole ride with both names, and everything that happened to it in order', async () => {
    const { t, admin } = op;
    const first = await driverAt(t, kmNorth(0.2));
    const second = await driverAt(t, kmNorth(0.6));
    const rider = await signUp(t);
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });

    const declined = await offerOf(t, first, ride.id);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${declined.offerId}/decline`, { token: first.token, body: { reason: 'too far' } }));
    t.clock.advance(5 * SECOND);
    const taken = await offerOf(t, second, ride.id);
    t.clock.advance(5 * SECOND);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${taken.offerId}/accept`, { token: second.token }));
    t.clock.advance(60 * SECOND);
    const near = { lat: PICKUP.lat + 0.001, lon: PICKUP.lon };
    assertOk(await call(t.app, 'POST', `/rides/location/${ride.id}`, { token: second.token, body: near }));
    t.clock.advance(60 * SECOND);
    assertOk(await setStatus(t, second, ride.id, { status: 'PICKED', otp: ride.startOtp }));
    t.clock.advance(15 * 60 * SECOND);
    assertOk(await setStatus(t, second, ride.id, { status: 'COMPLETED', otp: ride.endOtp }));
    t.clock.advance(60 * SECOND);
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: ride.fare, rideId: ride.id } });
    assertOk(order);
    const pay = paymentId();
    assertOk(await call(t.app, 'POST', '/payments/verify', { body: { orderId: order.body.orderId, paymentId: pay, signature: checkoutSignature(order.body.orderId, pay) } }));
    t.clock.advance(60 * SECOND);
    const complaint = await call(t.app, 'POST', `/rides/${ride.id}/complaints`, { token: rider.token, body: { category: 'route', message: 'Took a long way round' } });
    assertOk(complaint);
    t.clock.advance(60 * SECOND);
    assertOk(await call(t.app, 'POST', `/admin/complaints/${complaint.body.id}/resolve`, { token: admin.token, body: { resolution: 'Refunded the difference' } }));

    const reply = await call(t.app, 'GET', `/admin/rides/${ride.id}`, { token: admin.token });
    assertOk(reply);
    const detail = reply.body;
    assert.equal(detail.id, ride.id);
    assert.equal(detail.status, 'COMPLETED');
    assert.equal(detail.riderName, rider.name);
    assert.equal(detail.driverName, second.name);
    assert.equal(detail.paymentStatus, 'PAID');
    assert.ok(!('startOtp' in detail), 'no codes for operators');
    assert.deepEqual(
      detail.timeline.map((entry: { event: string }) => entry.event),
      ['booked', 'offered', 'offered', 'accepted', 'positions', 'picked_up', 'completed', 'payment', 'complaint', 'complaint_resolved'],
    );
    const times = detail.timeline.map((entry: { at: string }) => Date.parse(entry.at));
    assert.deepEqual(times, [...times].sort((a, b) => a - b), 'oldest first');
    const [booked, offeredFirst, offeredSecond, accepted, positions, , completed, payment, filed, resolved] = detail.timeline;
    assert.deepEqual(booked, { at: ride.createdAt, event: 'booked', riderId: rider.id, rideType: 'mini', fare: ride.fare, pricingVersion: 1 });
    assert.deepEqual(
      { driverId: offeredFirst.driverId, outcome: offeredFirst.outcome, declineReason: offeredFirst.declineReason },
      { driverId: first.id, outcome: 'declined', declineReason: 'too far' },
    );
    assert.deepEqual({ driverId: offeredSecond.driverId, outcome: offeredSecond.outcome }, { driverId: second.id, outcome: 'accepted' });
    assert.equal(accepted.driverId, second.id);
    assert.ok(Math.abs(accepted.pickupDistanceKm - 0.6) < 0.01, `pickup distance ${accepted.pickupDistanceKm}`);
    assert.deepEqual({ lat: positions.lat, lon: positions.lon }, near);
    assert.equal(completed.fare, ride.fare);
    assert.deepEqual({ amountInInr: payment.amountInInr, status: payment.status, paymentId: payment.paymentId }, { amountInInr: ride.fare, status: 'completed', paymentId: pay });
    assert.deepEqual({ complaintId: filed.complaintId, filedBy: filed.filedBy, party: filed.party, category: filed.category }, { complaintId: complaint.body.id, filedBy: rider.id, party: 'rider', category: 'route' });
    assert.deepEqual({ complaintId: resolved.complaintId, resolvedBy: resolved.resolvedBy }, { complaintId: complaint.body.id, resolvedBy: admin.id });
  });

  test('a ride nobody took yet is only booked', async () => {
    const { t, admin } = op;
    // Far from every driver of this file.
    const ride = await bookRide(t, await signUp(t), { pickupLat: 13.5, pickupLon: 77.6, dropLat: 13.55, dropLon: 77.6 });
    const reply = await call(t.app, 'GET', `/admin/rides/${ride.id}`, { token: admin.token });
    assertOk(reply);
    assert.equal(reply.body.driverName, null);
    assert.deepEqual(reply.body.timeline.map((entry: { event: string }) => entry.event), ['booked']);
  });
});
