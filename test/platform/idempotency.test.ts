import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IDEMPOTENCY_TTL_MS } from '../../src/platform/idempotency.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET } from '../helpers/fake-razorpay.ts';
import { assertError, TRIP } from '../helpers/rides.ts';

const trip = { pickupLocation: 'MG Road', dropLocation: 'Koramangala', ...TRIP };

describe('Idempotency-Key on POST /rides/book and POST /payments/order', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let rider: TestUser;

  const book = (user: TestUser, key: string | undefined, body: object = trip) =>
    call(t.app, 'POST', '/rides/book', { token: user.token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const ridesOf = async (user: TestUser) => (await call(t.app, 'GET', '/rides/history?limit=200', { token: user.token })).body as Array<{ id: number; status: string }>;

  before(async () => {
    provider = await new FakeRazorpay().start();
    t = await createTestApp({ razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('a retried booking with the same key makes one ride and answers the first result again', async () => {
    rider = await signUp(t, { role: 'RIDER' });
    const first = await book(rider, 'booking-1');
    assert.equal(first.status, 200);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    // The same body written in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(trip).reverse());
    const retry = await book(rider, 'booking-1', reordered);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.deepEqual(retry.body, first.body, 'the same ride, codes and all');
    assert.deepEqual((await ridesOf(rider)).map((ride) => ride.id), [first.body.id]);
  });

  test('duplicates sent at once make one ride, and every one of them gets it', async () => {
    const user = await signUp(t, { role: 'RIDER' });
    const replies = await Promise.all(Array.from({ length: 8 }, () => book(user, 'at-once')));
    for (const reply of replies) assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
    assert.equal((await ridesOf(user)).length, 1);
  });

  test('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED, and keys are per user', async () => {
    const user = await signUp(t, { role: 'RIDER' });
    assert.equal((await book(user, 'reused')).status, 200);
    assertError(await book(user, 'reused', { ...trip, dropLocation: 'Airport' }), 409, 'IDEMPOTENCY_KEY_REUSED');
    const other = await signUp(t, { role: 'RIDER' });
    const theirs = await book(other, 'reused', { ...trip, dropLocation: 'Airport' });
    assert.equal(theirs.status, 200, 'another user’s key of the same name is their own');
    assert.equal((await ridesOf(user)).length, 1);
  });

  test('a request that failed leaves the key free: the retry acts', async () => {
    const limited = await createTestApp({ maxOpenRidesPerRider: 1 });
    try {
      const user = await signUp(limited, { role: 'RIDER' });
      const open = await call(limited.app, 'POST', '/rides/book', { token: user.token, body: trip });
      const refused = await call(limited.app, 'POST', '/rides/book', { token: user.token, body: trip, headers: { 'idempotency-key': 'after-cancel' } });
      assertError(refused, 409, 'TOO_MANY_OPEN_RIDES');
      assert.equal((await call(limited.app, 'POST', `/rides/cancel/${open.body.id}`, { token: user.token, body: {} })).status, 200);
      const retried = await call(limited.app, 'POST', '/rides/book', { token: user.token, body: trip, headers: { 'idempotency-key': 'after-cancel' } });
      assert.equal(retried.status, 200);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    } finally {
      await limited.close();
    }
  });

  test('after 24 hours a key acts anew', async () => {
    const user = await signUp(t, { role: 'RIDER' });
    const first = await book(user, 'a-day');
    t.clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    // Its access token has long expired too.
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password, role: 'RIDER' } });
    const later = await book({ ...user, token: login.body.accessToken }, 'a-day');
    assert.equal(later.status, 200);
    assert.notEqual(later.body.id, first.body.id);
  });

  test('a key must be 1 to 255 printable characters', async () => {
    const user = await signUp(t, { role: 'RIDER' });
    assertError(await book(user, 'k'.repeat(256)), 400, 'VALIDATION_FAILED');
    assertError(await book(user, 'tab\there'), 400, 'VALIDATION_FAILED');
    assert.equal((await book(user, 'k'.repeat(255))).status, 200);
    assert.equal((await ridesOf(user)).length, 1);
  });

  test('a retried payment order creates one provider order', async () => {
    const user = await signUp(t, { role: 'RIDER' });
    const order = (key: string, amountInInr: number) =>
      call(t.app, 'POST', '/payments/order', { token: user.token, body: { amountInInr, paymentMode: 'upi' }, headers: { 'idempotency-key': key } });
    const before = provider.orders.length;
    const [first, second] = await Promise.all([order('order-1', 250), order('order-1', 250)]);
    assert.equal(first.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal(provider.orders.length, before + 1, 'the provider was asked once');
    assertError(await order('order-1', 300), 409, 'IDEMPOTENCY_KEY_REUSED');
    // A key is per user, not per route: the same key on a booking is another request.
    assertError(await book(user, 'order-1'), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  test('both operations document the header; browsers may send it', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    for (const [path, method] of [['/rides/book', 'post'], ['/payments/order', 'post']] as const) {
      const parameter = doc.paths[path][method].parameters.find((p: { name: string }) => p.name === 'idempotency-key');
      assert.ok(parameter, `${path} documents Idempotency-Key`);
      assert.equal(parameter.in, 'header');
      assert.equal(parameter.schema.maxLength, 255);
    }
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/rides/book',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });
    assert.match(String(preflight.headers['access-control-allow-headers']), /Idempotency-Key/);
  });
});
