import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { connectDatabase } from '../../../src/db/connect.ts';
import type { Database } from '../../../src/db/database.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET } from '../../helpers/fake-razorpay.ts';
import { assertError, assertOk, bookRide, eventsAbout, TRIP } from '../../helpers/rides.ts';

// Operators' work on accounts: list, block, unblock, erase, and the queue of deletion requests.

/** Every text column of every table, read from the database's own catalog. */
async function textColumns(db: Kysely<Database>, kind: 'sqlite' | 'postgres'): Promise<Array<{ table: string; column: string }>> {
  if (kind === 'postgres') {
    const { rows } = await sql<{ table: string; column: string }>`
      select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`.execute(db);
    return rows;
  }
  const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  const columns: Array<{ table: string; column: string }> = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(db);
    for (const row of rows) if (/char|text|clob|json/i.test(row.type)) columns.push({ table: name, column: row.name });
  }
  return columns;
}

describe('operator API: accounts', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let admin: TestUser;
  const as = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => call(t.app, method, url, { token: admin.token, body });
  const auditOf = async (userId: number) => (await as('GET', `/admin/audit?targetType=user&targetId=${userId}`)).body.items;

  before(async () => {
    provider = await new FakeRazorpay().start();
    ({ t, admin } = await createTestAppWithAdmin({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } }));
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('lists accounts newest first by role, status and part of the name or e-mail, one page at a time', async () => {
    const tag = `Kavya${Date.now().toString(36)}`;
    const made = [];
    for (const role of ['DRIVER', 'RIDER', 'DRIVER']) made.push(await signUp(t, { role: role as TestUser['role'], name: `${tag} ${role}` }));
    const ids = (reply: { body: { items: Array<{ id: number }> } }) => reply.body.items.map((a) => a.id);

    const byName = await as('GET', `/admin/users?q=${tag.toLowerCase()}`);
    assertOk(byName, 'list');
    assert.deepEqual(ids(byName), made.map((u) => u.id).reverse(), 'any case, newest first');
    assert.deepEqual(Object.keys(byName.body.items[0]).sort(), ['createdAt', 'email', 'id', 'name', 'role', 'status', 'statusChangedAt', 'statusReason']);
    assert.deepEqual(ids(await as('GET', `/admin/users?q=${tag}&role=DRIVER`)), [made[2].id, made[0].id]);
    assert.deepEqual(ids(await as('GET', `/admin/users?q=${encodeURIComponent(made[1].email.toUpperCase())}`)), [made[1].id]);
    assert.deepEqual(ids(await as('GET', '/admin/users?q=%25')), [], 'a % is a character, not a wildcard');

    const first = await as('GET', `/admin/users?q=${tag}&limit=2`);
    assert.equal(first.body.items.length, 2);
    const second = await as('GET', `/admin/users?q=${tag}&limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual([...ids(first), ...ids(second)], made.map((u) => u.id).reverse());
    assert.equal(second.body.nextCursor, null);

    assertOk(await as('POST', `/admin/users/${made[1].id}/block`, { reason: 'chargebacks' }), 'block');
    assert.deepEqual(ids(await as('GET', `/admin/users?q=${tag}&status=blocked`)), [made[1].id]);
    assert.deepEqual(ids(await as('GET', `/admin/users?q=${tag}&status=active`)), [made[2].id, made[0].id]);
    for (const query of ['status=gone', 'role=PILOT', 'limit=0', 'cursor=abc', `q=${'x'.repeat(101)}`]) assertError(await as('GET', `/admin/users?${query}`), 400);
  });

  test('block, unblock and erase each write one audit entry with before and after, and no personal data', async () => {
    const user = await signUp(t, { role: 'DRIVER', name: 'Audited Driver' });
    const blocked = await as('POST', `/admin/users/${user.id}/block`, { reason: '  repeated no-shows ' });
    assertOk(blocked, 'block');
    assert.equal(blocked.body.status, 'blocked');
    assert.equal(blocked.body.statusReason, 'repeated no-shows');
    assert.equal(typeof blocked.body.statusChangedAt, 'string');
    assertOk(await as('POST', `/admin/users/${user.id}/unblock`), 'unblock');
    const erased = await as('DELETE', `/admin/users/${user.id}`);
    assertOk(erased, 'erase');
    assert.deepEqual({ name: erased.body.name, email: erased.body.email, status: erased.body.status }, { name: 'Deleted user', email: `deleted-${user.id}@erased.invalid`, status: 'deleted' });

    const entries = (await auditOf(user.id)).reverse();
    assert.deepEqual(entries.map((e: { action: string }) => e.action), ['user.block', 'user.unblock', 'user.delete']);
    assert.deepEqual(entries.map((e: { before: unknown; after: unknown }) => [e.before, e.after]), [
      [{ role: 'DRIVER', status: 'active', statusReason: null }, { role: 'DRIVER', status: 'blocked', statusReason: 'repeated no-shows' }],
      [{ role: 'DRIVER', status: 'blocked', statusReason: 'repeated no-shows' }, { role: 'DRIVER', status: 'active', statusReason: null }],
      [{ role: 'DRIVER', status: 'active', statusReason: null }, { role: 'DRIVER', status: 'deleted', statusReason: null }],
    ]);
    for (const entry of entries) {
      assert.equal(entry.actorId, admin.id);
      assert.equal(typeof entry.requestId, 'string');
    }
  });

  test('refuses changes that do not fit: own account, unknown account, wrong status, bad input', async () => {
    const user = await signUp(t);
    assertError(await as('POST', `/admin/users/${admin.id}/block`, { reason: 'x' }), 403, 'OWN_ACCOUNT');
    assertError(await as('DELETE', `/admin/users/${admin.id}`), 403, 'OWN_ACCOUNT');
    for (const unknown of ['987654321', '9007199254740993']) {
      assertError(await as('POST', `/admin/users/${unknown}/block`, { reason: 'x' }), 404);
      assertError(await as('POST', `/admin/users/${unknown}/unblock`), 404);
      assertError(await as('DELETE', `/admin/users/${unknown}`), 404);
    }
    assertError(await as('POST', `/admin/users/${user.id}/unblock`), 409, 'ACCOUNT_STATUS');
    assertOk(await as('POST', `/admin/users/${user.id}/block`, { reason: 'x' }), 'block');
    assertError(await as('POST', `/admin/users/${user.id}/block`, { reason: 'x' }), 409, 'ACCOUNT_STATUS');
    assertOk(await as('DELETE', `/admin/users/${user.id}`), 'erase a blocked account');
    assertError(await as('DELETE', `/admin/users/${user.id}`), 409, 'ACCOUNT_ERASED');
    assertError(await as('POST', `/admin/users/${user.id}/unblock`), 409, 'ACCOUNT_STATUS');
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) assertError(await as('POST', `/admin/users/${user.id}/block`, body), 400);
    assertError(await as('POST', '/admin/users/abc/block', { reason: 'x' }), 400);
    assert.equal((await auditOf(user.id)).length, 2, 'only the block and the erasure were audited');
  });

  test('the deletion-request queue holds users who asked, since when they asked, until they are erased', async () => {
    const [asks, changesMind, stays] = [await signUp(t), await signUp(t), await signUp(t)];
    const settings = (user: TestUser, body: object) => call(t.app, 'PUT', '/user-settings', { token: user.token, body });
    const asked = await settings(asks, { deleteAccountRequested: true });
    assertOk(asked, 'ask');
    assertOk(await settings(changesMind, { deleteAccountRequested: true }), 'ask');
    assertOk(await settings(changesMind, { deleteAccountRequested: false }), 'withdraw');
    t.clock.advance(60_000);
    // Other changes, and asking again, leave the time of the request as it was.
    assertOk(await settings(asks, { deleteAccountRequested: true, mapStyle: 'dark' }), 'ask again');
    const queue = async () => (await as('GET', '/admin/deletion-requests?limit=200')).body.items as Array<{ id: number; email: string; deletionRequestedAt: string }>;
    const queued = await queue();
    const request = queued.find((item) => item.id === asks.id);
    assert.ok(request, 'the user who asked is queued');
    assert.equal(request.email, asks.email);
    assert.equal(request.deletionRequestedAt, asked.body.updatedAt);
    assert.ok(!queued.some((item) => item.id === changesMind.id || item.id === stays.id));
    assertOk(await as('DELETE', `/admin/users/${asks.id}`), 'erase');
    assert.ok(!(await queue()).some((item) => item.id === asks.id));
  });

  test('erasure leaves no name, e-mail or phone number anywhere in the database, while rides and payments remain', async () => {
    const name = 'Zoya Erasable-Kapoor';
    const email = uniqueEmail('zoya.erasable');
    const phone = '98765 43210';
    const created = await as('POST', '/admin/users', { name, email, password: 'a long password', role: 'RIDER' });
    assertOk(created, 'create');
    const login = await call(t.app, 'POST', '/auth/login', { body: { email, password: 'a long password' } });
    const rider = { ...created.body, token: login.body.accessToken } as TestUser;
    assertOk(await call(t.app, 'PUT', '/user-settings', { token: rider.token, body: { emergencyContact: `+91 ${phone}`, deleteAccountRequested: true } }), 'settings');
    const ride = await bookRide(t, rider, { pickupLocation: 'Gate 2, Tech Park', paymentMode: 'UPI' });
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: ride.fare, rideId: ride.id, rideSummary: `${name}: to the airport` } });
    assertOk(order, 'order');
    assertOk(await call(t.app, 'POST', '/payments/verify', { body: { ...(await provider.pay(order.body.orderId)) } }), 'verify');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token, body: { reason: 'no longer needed' } }), 'cancel');
    assertOk(await as('POST', `/admin/users/${rider.id}/block`, { reason: 'asked for erasure' }), 'block');
    assertOk(await as('DELETE', `/admin/users/${rider.id}`), 'erase');

    const { db } = connectDatabase(t.config.database);
    try {
      const columns = await textColumns(db, t.config.database.kind);
      assert.ok(columns.some((c) => c.table === 'users' && c.column === 'email') && columns.some((c) => c.table === 'audit_log'), 'the catalog lists the text columns');
      for (const needle of [name, email, phone, name.split(' ')[1]]) {
        for (const { table, column } of columns) {
          const { rows } = await sql<{ hits: number }>`select count(*) as hits from ${sql.table(table)} where lower(${sql.ref(column)}) like ${`%${needle.toLowerCase()}%`}`.execute(db);
          assert.equal(Number(rows[0].hits), 0, `${table}.${column} still holds "${needle}"`);
        }
      }
    } finally {
      await db.destroy();
    }

    const status = await call(t.app, 'GET', `/rides/status/${ride.id}`);
    assertOk(status, 'the ride remains');
    assert.equal(status.body.riderId, rider.id);
    const [createdEntry] = (await auditOf(rider.id)).filter((e: { action: string }) => e.action === 'user.create');
    assert.deepEqual(createdEntry.after, { id: rider.id, name: 'Deleted user', email: `deleted-${rider.id}@erased.invalid`, role: 'RIDER' }, 'the trail keeps the entry, not the person');
  });

  test("erasure drops the answers kept for the person's retries (idempotency keys), and no one else's", async () => {
    const rider = await signUp(t);
    const other = await signUp(t);
    const book = (user: TestUser, key: string) =>
      call(t.app, 'POST', '/rides/book', { token: user.token, headers: { 'idempotency-key': key }, body: { pickupLocation: '7 Private Road', dropLocation: 'Clinic', ...TRIP } });
    assertOk(await book(rider, 'erase-me'), 'book with a key');
    assertOk(await book(other, 'keep-me'), 'another rider books with a key');
    const { db } = connectDatabase(t.config.database);
    const keysOf = async (userId: number) => (await db.selectFrom('idempotency_keys').select('idempotency_key').where('user_id', '=', userId).execute()).map((row) => row.idempotency_key);
    try {
      assert.deepEqual(await keysOf(rider.id), ['erase-me'], 'kept before the erasure');
      assertOk(await as('DELETE', `/admin/users/${rider.id}`), 'erase');
      assert.deepEqual(await keysOf(rider.id), []);
      assert.deepEqual(await keysOf(other.id), ['keep-me']);
    } finally {
      await db.destroy();
    }
  });

  test('erasing a rider cancels their open rides: the places they typed leave the open list, and no driver gets them any more', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const other = await signUp(t, { role: 'DRIVER' });
    const home = { pickupLocation: '14 Quiet Lane, my home', pickupLat: 12.9612, pickupLon: 77.6387 };
    const requested = await bookRide(t, rider, home);
    const accepted = await bookRide(t, rider, { dropLocation: 'My office' });
    assertOk(await call(t.app, 'POST', `/rides/status/${accepted.id}`, { token: driver.token, body: { status: 'ACCEPTED', driverId: driver.id } }), 'accept');
    const openList = async () => JSON.stringify((await call(t.app, 'GET', '/rides/requested?limit=200')).body);
    assert.match(await openList(), /14 Quiet Lane/, 'public before the erasure');

    assertOk(await as('DELETE', `/admin/users/${rider.id}`), 'erase');
    const list = await openList();
    assert.doesNotMatch(list, /14 Quiet Lane/);
    assert.ok(!list.includes(String(home.pickupLat)) && !list.includes(`"id":${requested.id},`), 'nor its coordinates');
    assertError(await call(t.app, 'POST', `/rides/status/${requested.id}`, { token: other.token, body: { status: 'ACCEPTED', driverId: other.id } }), 409, 'RIDE_NOT_REQUESTED');
    for (const ride of [requested, accepted]) {
      const view = (await call(t.app, 'GET', `/admin/rides/${ride.id}`, { token: admin.token })).body;
      assert.deepEqual([view.status, view.cancelledBy, view.cancellationFee], ['CANCELLED', 'admin', null], `ride ${ride.id}`);
    }
    assert.deepEqual(await eventsAbout(t, driver, accepted.id), ['RIDE_CANCELLED'], 'the driver of the accepted ride is told');
    const free = await bookRide(t, await signUp(t));
    assertOk(await call(t.app, 'POST', `/rides/status/${free.id}`, { token: driver.token, body: { status: 'ACCEPTED', driverId: driver.id } }), 'the driver is free again');
  });

  test("a driver erased while their position waits to be written leaves the map, and other drivers' positions are written", async () => {
    const [leaving, staying] = [await signUp(t, { role: 'DRIVER' }), await signUp(t, { role: 'DRIVER' })];
    const at = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };
    for (const driver of [leaving, staying]) assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: at }), 'position');
    assertOk(await as('DELETE', `/admin/users/${leaving.id}`), 'erase');
    // A restart writes what was pending and shows again the drivers the database has online.
    await t.restart();
    const nearby = (await call(t.app, 'GET', `/rides/drivers/nearby?lat=${at.lat}&lon=${at.lon}&radiusKm=1&limit=100`)).body.map((d: { driverId: number }) => d.driverId);
    assert.ok(nearby.includes(staying.id), 'the other driver was written and restored');
    assert.ok(!nearby.includes(leaving.id), 'the erased driver is off the map');
    assertError(await call(t.app, 'PUT', '/drivers/me/location', { token: leaving.token, body: at }), 401, 'TOKEN_REVOKED');
  });
});
