import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';

describe('HTTP conventions', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('malformed JSON is a 400 with the error shape', async () => {
    const reply = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    assert.equal(reply.statusCode, 400);
    assert.deepEqual(reply.json(), { statusCode: 400, error: 'Bad Request', code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' });
  });

  test('a body over 1 MiB is a 413', async () => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) }),
    });
    assert.equal(reply.statusCode, 413);
    assert.equal(reply.json().code, 'PAYLOAD_TOO_LARGE');
  });

  test('a body just under 1 MiB is parsed (and then validated)', async () => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1000 * 1000) }),
    });
    assert.equal(reply.statusCode, 400);
    assert.equal(reply.json().code, 'VALIDATION_FAILED');
  });

  test('prototype poisoning in JSON is refused', async () => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","password":"12345678","__proto__":{"admin":true}}',
    });
    assert.equal(reply.statusCode, 400);
  });

  test('an unknown route is a JSON 404', async () => {
    const reply = await call(t.app, 'GET', '/no/such/route?x=1');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Route GET /no/such/route not found' });
  });

  test('health and readiness answer 200', async () => {
    assert.deepEqual((await call(t.app, 'GET', '/health')).body, { status: 'ok' });
    const ready = await call(t.app, 'GET', '/ready');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks.database, 'ok');
  });

  test('the OpenAPI document is generated from the routes and the docs are served', async () => {
    const doc = await call(t.app, 'GET', '/openapi.json');
    assert.equal(doc.status, 200);
    assert.match(doc.body.openapi, /^3\./);
    assert.ok(doc.body.paths['/auth/login'].post);
    assert.ok(doc.body.paths['/user-settings'].put.requestBody);
    assert.deepEqual(doc.body.paths['/user-settings'].get.security, [{ bearerAuth: [] }]);
    assert.equal(doc.body.paths['/auth/login'].post.security, undefined);
    assert.ok(!doc.body.paths['/openapi.json'], 'the document does not list itself');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.headers['content-type'] as string, /text\/html/);
  });

  test('every response carries a request id, and a plain caller id is kept', async () => {
    const generated = await call(t.app, 'GET', '/health');
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const given = await call(t.app, 'GET', '/health', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(given.headers['x-request-id'], 'trace-123');
    const hostile = await call(t.app, 'GET', '/health', { headers: { 'x-request-id': 'bad id\nwith newline' } });
    assert.notEqual(hostile.headers['x-request-id'], 'bad id\nwith newline');
  });
});

describe('rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ rateLimitPerMinute: 5, authRateLimitPerMinute: 3 });
  });
  after(() => t.close());

  const from = (ip: string) => ({ remoteAddress: ip });

  test('/auth/* has its own stricter budget per IP, answered with 429 and Retry-After', async () => {
    const login = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.com', password: 'whatever1' }, ...from(ip) });
    for (let i = 0; i < 3; i++) assert.equal((await login('10.0.0.1')).statusCode, 401);
    const limited = await login('10.0.0.1');
    assert.equal(limited.statusCode, 429);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.json().code, 'RATE_LIMITED');
    assert.equal((await login('10.0.0.2')).statusCode, 401, 'another IP has its own budget');

    t.clock.advance(60_001);
    assert.equal((await login('10.0.0.1')).statusCode, 401, 'the window ends');
  });

  test('other routes share the general budget; health probes are never limited', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, ...from('10.0.0.9') });
    for (let i = 0; i < 5; i++) assert.equal((await get('/user-settings')).statusCode, 401);
    assert.equal((await get('/notifications/history')).statusCode, 429);
    for (let i = 0; i < 10; i++) assert.equal((await get('/health')).statusCode, 200);
    assert.equal((await get('/ready')).statusCode, 200);
  });
});

describe('secrets stay out of logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({}, { logger: { level: 'trace', stream } });
  });
  after(() => t.close());

  test('no password, code or token appears in any log line', async () => {
    const user = await signUp(t, { password: 'very-secret-password-42' });
    const refreshed = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    await call(t.app, 'GET', '/user-settings', { token: refreshed.body.accessToken });
    await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: 'wrong-password-99' } });
    const otpMail = t.smtp.mails.findLast((m) => m.to.includes(user.email))!;
    const otp = /code is (\d{6})/.exec(otpMail.raw)![1];
    const log = lines.join('');
    assert.ok(lines.length > 10, 'requests were logged');
    // The code is six digits, which timestamps may contain by chance; look for it as a value or in the mail text.
    for (const secret of ['very-secret-password-42', 'wrong-password-99', user.token, user.refreshToken, refreshed.body.accessToken, `"${otp}"`, `is ${otp}`]) {
      assert.ok(!log.includes(secret), `log contains ${secret.slice(0, 12)}…`);
    }
  });
});
