import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { assertError, assertOk, bookRide, completedRide, notificationsAbout } from '../../helpers/rides.ts';
import { auditOf, operatorApp, type OperatorApp } from '../admin/operator.ts';

describe('complaints', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ dispatch: { mode: 'broadcast', batchMs: 200, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(() => op.t.close());

  const file = (token: string, rideId: number, body: unknown) => call(op.t.app, 'POST', `/rides/${rideId}/complaints`, { token, body });
  const onRide = (token: string, rideId: number) => call(op.t.app, 'GET', `/rides/${rideId}/complaints`, { token });

  test('filed by rider and driver, resolved by an operator: each party is told, the trail has one entry', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked: ride } = await completedRide(t, rider, driver);

    const byRider = await file(rider.token, ride.id, { category: 'safety', message: '  The driver was on the phone the whole way  ' });
    assertOk(byRider);
    assert.deepEqual(
      { ...byRider.body, id: undefined, createdAt: undefined },
      { id: undefined, rideId: ride.id, filedBy: rider.id, party: 'rider', category: 'safety', message: 'The driver was on the phone the whole way', status: 'open', resolution: null, resolvedBy: null, resolvedAt: null, createdAt: undefined },
    );
    const byDriver = await file(driver.token, ride.id, { category: 'behaviour', message: 'Rider slammed the door' });
    assertOk(byDriver);
    assert.equal(byDriver.body.party, 'driver');

    // Each party reads their own complaint only; the operator reads both.
    assert.deepEqual((await onRide(rider.token, ride.id)).body.map((c: { id: number }) => c.id), [byRider.body.id]);
    assert.deepEqual((await onRide(driver.token, ride.id)).body.map((c: { id: number }) => c.id), [byDriver.body.id]);
    assert.deepEqual((await onRide(admin.token, ride.id)).body.map((c: { id: number }) => c.id), [byRider.body.id, byDriver.body.id]);
    const queue = await call(t.app, 'GET', '/admin/complaints?status=open', { token: admin.token });
    assert.deepEqual(queue.body.items.slice(0, 2).map((c: { id: number }) => c.id), [byDriver.body.id, byRider.body.id]);

    const resolved = await call(t.app, 'POST', `/admin/complaints/${byRider.body.id}/resolve`, { token: admin.token, body: { resolution: 'We spoke to the driver and refunded ₹50' } });
    assertOk(resolved);
    assert.deepEqual({ status: resolved.body.status, resolution: resolved.body.resolution, resolvedBy: resolved.body.resolvedBy }, { status: 'resolved', resolution: 'We spoke to the driver and refunded ₹50', resolvedBy: admin.id });
    assert.equal(typeof resolved.body.resolvedAt, 'string');

    const [toRider] = (await notificationsAbout(t, rider, ride.id)).filter((n) => n.eventType === 'COMPLAINT_RESOLVED');
    assert.match(toRider.message, /We spoke to the driver and refunded ₹50/);
    const toDriver = (await notificationsAbout(t, driver, ride.id)).filter((n) => n.eventType === 'COMPLAINT_RESOLVED');
    assert.equal(toDriver.length, 1, 'the other party is told a report was closed');
    assert.doesNotMatch(toDriver[0].message, /refunded|phone/, 'but not what was said');

    const [entry, ...more] = await auditOf(t, admin, 'complaint', byRider.body.id);
    assert.deepEqual(more, []);
    assert.equal(entry.action, 'complaint.resolve');
    assert.equal(entry.requestId, resolved.headers['x-request-id']);
    assert.deepEqual(entry.before, { status: 'open', resolution: null, resolvedBy: null, resolvedAt: null });
    assert.deepEqual(entry.after, { status: 'resolved', resolution: 'We spoke to the driver and refunded ₹50', resolvedBy: admin.id, resolvedAt: resolved.body.resolvedAt });
    assert.ok(!JSON.stringify(entry).includes('phone'), "the complainant's words stay out of the trail");

    assert.equal((await onRide(rider.token, ride.id)).body[0].resolution, 'We spoke to the driver and refunded ₹50');
    const done = await call(t.app, 'GET', '/admin/complaints?status=resolved', { token: admin.token });
    assert.deepEqual(done.body.items.map((c: { id: number }) => c.id), [byRider.body.id]);
    assertError(await call(t.app, 'POST', `/admin/complaints/${byRider.body.id}/resolve`, { token: admin.token, body: { resolution: 'again' } }), 409, 'COMPLAINT_ALREADY_RESOLVED');
    assert.equal((await auditOf(t, admin, 'complaint', byRider.body.id)).length, 1);
  });

  test('only the ride\'s rider and driver may complain or read; an unknown ride is 404', async () => {
    const { t } = op;
    const rider = await signUp(t);
    const stranger = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    // Still waiting for a driver: its rider may complain already, a driver who is not on it may not.
    const ride = await bookRide(t, rider);
    assertOk(await file(rider.token, ride.id, { category: 'app', message: 'Nobody is coming' }));
    for (const user of [stranger, driver]) {
      assertError(await file(user.token, ride.id, { category: 'other', message: 'hello' }), 403);
      assertError(await onRide(user.token, ride.id), 403);
    }
    assertError(await file(rider.token, 99999999, { category: 'other', message: 'hello' }), 404);
    assertError(await onRide(rider.token, 99999999), 404);
    assertError(await call(t.app, 'GET', `/rides/${ride.id}/complaints`), 401);
  });

  test('a complaint needs a category from the list and a message', async () => {
    const { t } = op;
    const rider = await signUp(t);
    const ride = await bookRide(t, rider);
    for (const body of [{}, { category: 'rude', message: 'x' }, { category: 'fare' }, { category: 'fare', message: '' }, { category: 'fare', message: '   ' }, { category: 'fare', message: 'x'.repeat(2001) }, { category: 'FARE', message: 'x' }]) {
      assertError(await file(rider.token, ride.id, body), 400);
    }
    assert.deepEqual((await onRide(rider.token, ride.id)).body, []);
  });

  test("an erased account's complaints keep their category and resolution, not what the person wrote", async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const ride = await bookRide(t, rider);
    const filed = await file(rider.token, ride.id, { category: 'lost_item', message: `My bag, call me: ${rider.email}` });
    assertOk(filed);
    assertOk(await call(t.app, 'DELETE', `/admin/users/${rider.id}`, { token: admin.token }));
    const [kept] = (await onRide(admin.token, ride.id)).body;
    assert.deepEqual({ id: kept.id, category: kept.category, filedBy: kept.filedBy, message: kept.message }, { id: filed.body.id, category: 'lost_item', filedBy: rider.id, message: '' });
  });

  test('resolving needs a resolution and a complaint that exists', async () => {
    const { t, admin } = op;
    assertError(await call(t.app, 'POST', '/admin/complaints/99999999/resolve', { token: admin.token, body: { resolution: 'done' } }), 404);
    for (const body of [{}, { resolution: ' ' }]) assertError(await call(t.app, 'POST', '/admin/complaints/1/resolve', { token: admin.token, body }), 400);
    assertError(await call(t.app, 'GET', '/admin/complaints?status=closed', { token: admin.token }), 400);
  });
});
