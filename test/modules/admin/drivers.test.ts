import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { auditOf, operatorApp, type OperatorApp } from './operator.ts';

/** A driver who described their vehicle: pending approval. */
async function applicant(t: TestApp): Promise<TestUser> {
  const driver = await signUp(t, { role: 'DRIVER' });
  assertOk(await call(t.app, 'PUT', '/drivers/me/profile', { token: driver.token, body: { vehicleType: 'mini', vehicleNumber: `KA01AB${String(driver.id).padStart(4, '0')}` } }));
  return driver;
}

const noticesOf = async (t: TestApp, user: TestUser) =>
  (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body.notifications as Array<{ eventType: string; title: string; message: string }>;

describe('operator API: driver approval', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ driverApprovalRequired: true, dispatch: { mode: 'broadcast', batchMs: 200, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(() => op.t.close());

  test('the queue lists pending drivers newest first, with their name and e-mail', async () => {
    const { t, admin } = op;
    const oldest = await applicant(t);
    const older = await applicant(t);
    const newer = await applicant(t);
    const page = await call(t.app, 'GET', '/admin/drivers?approval=pending&limit=2', { token: admin.token });
    assertOk(page);
    assert.deepEqual(page.body.items.map((item: { driverId: number }) => item.driverId), [newer.id, older.id]);
    assert.equal(page.body.nextCursor, String(older.id));
    const next = await call(t.app, 'GET', `/admin/drivers?approval=pending&limit=2&cursor=${page.body.nextCursor}`, { token: admin.token });
    assert.deepEqual(next.body.items.map((item: { driverId: number }) => item.driverId), [oldest.id]);
    const [first] = page.body.items;
    assert.deepEqual({ name: first.name, email: first.email, approval: first.approval, vehicleNumber: first.vehicleNumber }, {
      name: newer.name,
      email: newer.email,
      approval: 'pending',
      vehicleNumber: `KA01AB${String(newer.id).padStart(4, '0')}`,
    });
    assertError(await call(t.app, 'GET', '/admin/drivers?approval=maybe', { token: admin.token }), 400);
  });

  test('approval lets a driver take rides; the driver is told; one audit entry with before and after', async () => {
    const { t, admin } = op;
    const driver = await applicant(t);
    const ride = await bookRide(t, await signUp(t));
    assertError(await accept(t, driver, ride.id), 403, 'DRIVER_NOT_APPROVED');

    const reply = await call(t.app, 'POST', `/admin/drivers/${driver.id}/approve`, { token: admin.token });
    assertOk(reply);
    assert.equal(reply.body.approval, 'approved');
    assert.equal(reply.body.approvalReason, null);
    assertOk(await accept(t, driver, ride.id));
    assert.deepEqual((await noticesOf(t, driver)).map((n) => n.eventType), ['DRIVER_APPROVED']);

    const entries = await auditOf(t, admin, 'driver', driver.id);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].action, 'driver.approve');
    assert.equal(entries[0].actorId, admin.id);
    assert.equal(entries[0].requestId, reply.headers['x-request-id']);
    assert.equal(entries[0].before.approval, 'pending');
    assert.deepEqual(entries[0].after, reply.body);
    const approved = await call(t.app, 'GET', '/admin/drivers?approval=approved', { token: admin.token });
    assert.ok(approved.body.items.some((item: { driverId: number }) => item.driverId === driver.id));
  });

  test('a rejection carries its reason to the driver and into the trail', async () => {
    const { t, admin } = op;
    const driver = await applicant(t);
    const reply = await call(t.app, 'POST', `/admin/drivers/${driver.id}/reject`, { token: admin.token, body: { reason: 'Registration papers unreadable' } });
    assertOk(reply);
    assert.deepEqual({ approval: reply.body.approval, approvalReason: reply.body.approvalReason }, { approval: 'rejected', approvalReason: 'Registration papers unreadable' });
    const [notice] = await noticesOf(t, driver);
    assert.equal(notice.eventType, 'DRIVER_REJECTED');
    assert.match(notice.message, /Registration papers unreadable/);
    const [entry, ...more] = await auditOf(t, admin, 'driver', driver.id);
    assert.deepEqual(more, []);
    assert.equal(entry.action, 'driver.reject');
    assert.deepEqual({ before: entry.before.approval, after: entry.after.approval, reason: entry.after.approvalReason }, { before: 'pending', after: 'rejected', reason: 'Registration papers unreadable' });
    // Also visible to the driver.
    const profile = await call(t.app, 'GET', '/drivers/me/profile', { token: driver.token });
    assert.equal(profile.body.approval, 'rejected');
  });

  test('a decision needs a driver with a vehicle profile, and a rejection needs a reason', async () => {
    const { t, admin } = op;
    const noProfile = await signUp(t, { role: 'DRIVER' });
    assertError(await call(t.app, 'POST', `/admin/drivers/${noProfile.id}/approve`, { token: admin.token }), 404, 'NO_PROFILE');
    assertError(await call(t.app, 'POST', '/admin/drivers/99999999/approve', { token: admin.token }), 404, 'NO_PROFILE');
    // Beyond the id columns' range: no driver, not a database error.
    assertError(await call(t.app, 'POST', '/admin/drivers/9007199254740993/approve', { token: admin.token }), 404, 'NO_PROFILE');
    const driver = await applicant(t);
    for (const body of [undefined, {}, { reason: ' ' }, { reason: 'x'.repeat(601) }]) {
      assertError(await call(t.app, 'POST', `/admin/drivers/${driver.id}/reject`, { token: admin.token, body }), 400);
    }
    assert.deepEqual(await auditOf(t, admin, 'driver', driver.id), []);
    assert.deepEqual(await auditOf(t, admin, 'driver', noProfile.id), []);
    assert.deepEqual(await noticesOf(t, driver), []);
  });
});
