import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';

const preflight = (t: TestApp, origin: string, method = 'POST', headers = 'authorization,content-type') =>
  t.app.inject({
    method: 'OPTIONS',
    url: '/rides/book',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

describe('CORS with a list of origins', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ corsOrigins: ['https://app.example.com', 'http://localhost:5173'] });
  });
  after(() => t.close());

  test('a preflight from an allowed origin is answered with the methods and headers the API uses', async () => {
    const reply = await preflight(t, 'https://app.example.com', 'PUT', 'authorization,content-type,x-request-id');
    assert.equal(reply.statusCode, 204);
    assert.equal(reply.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.deepEqual(String(reply.headers['access-control-allow-methods']).split(/,\s*/), ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);
    assert.deepEqual(String(reply.headers['access-control-allow-headers']).split(/,\s*/), ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key']);
    assert.ok(Number(reply.headers['access-control-max-age']) > 0);
    assert.equal(reply.headers['access-control-allow-credentials'], undefined, 'bearer tokens, never cookies');
    assert.match(String(reply.headers.vary), /Origin/);
  });

  test('a cross-origin request from an allowed origin can read the answer and the exposed headers, errors included', async () => {
    const origin = 'http://localhost:5173';
    const ok = await call(t.app, 'GET', '/rides/requested', { headers: { origin } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], origin);
    assert.deepEqual(String(ok.headers['access-control-expose-headers']).split(/,\s*/), ['X-Next-Cursor', 'X-Request-Id', 'Retry-After', 'Idempotent-Replayed']);
    const refusedToken = await call(t.app, 'GET', '/user-settings', { headers: { origin } });
    assert.equal(refusedToken.status, 401);
    assert.equal(refusedToken.headers['access-control-allow-origin'], origin, 'the app can read why it was refused');
  });

  test('a refused origin gets no Access-Control-Allow-Origin, on the preflight or the request', async () => {
    const pre = await preflight(t, 'https://evil.example.net');
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
    const request = await call(t.app, 'GET', '/rides/requested', { headers: { origin: 'https://evil.example.net' } });
    assert.equal(request.headers['access-control-allow-origin'], undefined);
    // A look-alike is not the origin: scheme, host and port must all match.
    for (const origin of ['http://app.example.com', 'https://app.example.com.evil.net', 'http://localhost:5174']) {
      assert.equal((await preflight(t, origin)).headers['access-control-allow-origin'], undefined, origin);
    }
  });
});

describe('CORS and rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ corsOrigins: ['https://app.example.com'], rateLimitPerMinute: 2 });
  });
  after(() => t.close());

  test('a preflight is answered before the rate limit, and a 429 still tells the app why', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await preflight(t, 'https://app.example.com')).statusCode, 204);
    const origin = { origin: 'https://app.example.com' };
    for (let i = 0; i < 2; i++) assert.equal((await call(t.app, 'GET', '/rides/requested', { headers: origin })).status, 200);
    const limited = await call(t.app, 'GET', '/rides/requested', { headers: origin });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.match(String(limited.headers['access-control-expose-headers']), /Retry-After/);
  });
});

describe('OPTIONS without an Origin', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('is told the allowed methods, never answered outside the uniform error body', async () => {
    const reply = await t.app.inject({ method: 'OPTIONS', url: '/rides/book' });
    assert.equal(reply.statusCode, 204);
    assert.match(String(reply.headers['access-control-allow-methods']), /POST/);
  });
});

describe('CORS with the default *', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('any origin may call, without credentials', async () => {
    assert.equal(t.config.corsOrigins, '*');
    const pre = await preflight(t, 'https://anywhere.example.org');
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.match(String(pre.headers['access-control-allow-methods']), /DELETE/);
    const request = await call(t.app, 'GET', '/health', { headers: { origin: 'https://anywhere.example.org' } });
    assert.equal(request.headers['access-control-allow-origin'], '*');
    assert.match(String(request.headers['access-control-expose-headers']), /X-Next-Cursor/);
  });
});
