import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { DrainState } from '../../src/platform/health.ts';
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
    assert.deepEqual(doc.body.paths['/auth/login'].post.security, [], 'a public operation says so');
    assert.ok(!doc.body.paths['/openapi.json'], 'the document does not list itself');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.headers['content-type'] as string, /text\/html/);
  });

  test('NUL characters are refused by validation in bodies, query strings and path parameters', async () => {
    const rider = await signUp(t);
    const refusals: Array<[string, string, unknown?]> = [
      ['GET', '/payments/session/%00'],
      ['GET', '/payments/session/abc%00def'],
      ['POST', '/payments/verify', { orderId: '\u0000', paymentId: 'pay_1', signature: 'ab' }],
      ['POST', '/auth/login', { email: 'a\u0000@b.cc', password: 'whatever-123' }],
      ['POST', '/auth/signup/request-otp', { name: 'Nul\u0000', email: 'nul@example.com' }],
      ['POST', '/rides/book', { pickupLocation: 'Gate\u00001', dropLocation: 'Mall' }],
      ['POST', '/rides/book', { dropLandmark: 'x'.repeat(50) + '\u0000' }],
      ['POST', '/payments/order', { amountInInr: 100, rideSummary: 'ride\u0000' }],
      ['PUT', '/user-settings', { emergencyContact: '\u0000' }],
      ['GET', '/rides/estimate?distanceKm=5&note=%00'],
      ['POST', '/auth/login', { email: 'a@b.cc', password: 'whatever-123', 'extra\u0000': true }],
      ['POST', '/rides/book', { pickupLocation: 'Gate', nested: [{ deep: ['\u0000'] }] }],
    ];
    for (const [method, url, body] of refusals) {
      const reply = await call(t.app, method as 'GET', url, { token: rider.token, body });
      assert.equal(reply.status, 400, `${method} ${url} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, 'VALIDATION_FAILED');
      assert.match(reply.body.message, /must not contain NUL characters/);
    }
    // Other control characters and any Unicode are text like any other.
    const fine = await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'Gate\u0001 ☂ 𝔘', dropLocation: 'Mall' } });
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
  });

  test('every route schema refuses NUL, without the route doing anything for it', async () => {
    const app = (await import('fastify')).default();
    const { registerHttpConventions } = await import('../../src/platform/http.ts');
    registerHttpConventions(app);
    const text = { type: 'object', properties: { value: { type: 'string' } } };
    app.post('/echo/:value', { schema: { params: text, querystring: text, body: text } }, async (request) => request.body);
    for (const [url, body] of [
      ['/echo/a%00b', { value: 'x' }],
      ['/echo/a?value=%00', { value: 'x' }],
      ['/echo/a', { value: 'x\u0000' }],
    ] as const) {
      const reply = await app.inject({ method: 'POST', url, payload: body });
      assert.equal(reply.statusCode, 400, url);
      assert.equal(reply.json().code, 'VALIDATION_FAILED');
    }
    assert.equal((await app.inject({ method: 'POST', url: '/echo/a?value=b', payload: { value: 'c' } })).statusCode, 200);
    await app.close();
  });

  test('a deeply nested body is validated without overflowing the stack', async () => {
    const depth = 100_000;
    const payload = `{"email":"a@b.cc","password":"whatever-123","x":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`;
    const reply = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(reply.statusCode, 400, reply.body.slice(0, 200));
    assert.match(reply.json().message, /must not contain NUL/);
  });

  test('an over-long path parameter is 414 URI Too Long in the uniform error body', async () => {
    const reply = await call(t.app, 'GET', `/payments/session/${'a'.repeat(200)}`);
    assert.equal(reply.status, 414);
    assert.deepEqual(reply.body, { statusCode: 414, error: 'URI Too Long', code: 'URI_TOO_LONG', message: 'A path segment is longer than 100 characters' });
  });

  test('an undecodable URL is 400 MALFORMED_URL in the uniform error body', async () => {
    const reply = await call(t.app, 'GET', '/rides/status/%zz');
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, { statusCode: 400, error: 'Bad Request', code: 'MALFORMED_URL', message: 'The URL is not validly percent-encoded' });
  });

  test('requests the HTTP parser refuses are answered in the uniform error body', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const malformed = await raw('GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    assert.match(malformed, /^HTTP\/1\.1 400 Bad Request/);
    assert.deepEqual(JSON.parse(malformed.slice(malformed.indexOf('\r\n\r\n') + 4)), {
      statusCode: 400,
      error: 'Bad Request',
      code: 'MALFORMED_REQUEST',
      message: 'The request is not valid HTTP',
    });
    const huge = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.equal(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)).code, 'HEADERS_TOO_LARGE');
  });

  test("every response carries a request id of the service's own, whatever id the caller sent", async () => {
    const generated = await call(t.app, 'GET', '/health');
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const given = await call(t.app, 'GET', '/health', { headers: { 'x-request-id': 'trace-123' } });
    assert.match(String(given.headers['x-request-id']), /^[0-9a-f-]{36}$/, "a caller's id never stands in for ours");
    assert.notEqual(given.headers['x-request-id'], generated.headers['x-request-id']);
    const hostile = await call(t.app, 'GET', '/health', { headers: { 'x-request-id': 'bad id\nwith newline' } });
    assert.match(String(hostile.headers['x-request-id']), /^[0-9a-f-]{36}$/);
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

  test('the auth budget follows the route a request reaches, however its path is spelled', async () => {
    const attempts: Array<[string, object]> = [
      ['/%61uth/login', { email: 'nobody@example.com', password: 'whatever1' }],
      ['/%61uth/signup', { name: 'Eve', email: 'eve@example.com', password: 'whatever1', otp: '123456' }],
      ['/auth/%6Cogin', { email: 'nobody@example.com', password: 'whatever1' }],
    ];
    for (const [index, [url, payload]] of attempts.entries()) {
      const ip = `10.0.1.${index + 1}`;
      const post = () => t.app.inject({ method: 'POST', url, payload, ...from(ip) });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await post()).statusCode);
      assert.ok(answers.slice(0, 3).every((status) => status === 400 || status === 401), `${url} reaches its handler: ${answers.join(", ")}`);
      assert.equal(answers[3], 429, `${url} counts against the auth budget of 3`);
    }
  });

  test('other routes share the general budget; health probes are never limited', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, ...from('10.0.0.9') });
    for (let i = 0; i < 5; i++) assert.equal((await get('/user-settings')).statusCode, 401);
    assert.equal((await get('/notifications/history')).statusCode, 429);
    for (let i = 0; i < 10; i++) assert.equal((await get('/health')).statusCode, 200);
    assert.equal((await get('/ready')).statusCode, 200);
  });
});

describe('a stopping instance', () => {
  let t: TestApp;
  let drain: DrainState = 'serving';
  before(async () => {
    t = await createTestApp({}, { drain: () => drain });
  });
  after(() => t.close());

  test('fails /health and /ready while it drains, still serving every route; once closing, every answer closes its connection', async () => {
    drain = 'draining';
    for (const url of ['/health', '/ready']) {
      const reply = await t.app.inject({ method: 'GET', url });
      assert.equal(reply.statusCode, 503, url);
      assert.deepEqual(reply.json(), { status: 'draining' });
    }
    const served = await t.app.inject({ method: 'GET', url: '/rides/requested' });
    assert.equal(served.statusCode, 200);
    assert.notEqual(served.headers.connection, 'close', 'connections are kept while balancers notice');
    drain = 'closing';
    for (const url of ['/rides/requested', '/openapi.json']) {
      const reply = await t.app.inject({ method: 'GET', url });
      assert.equal(reply.statusCode, 200, url);
      assert.equal(reply.headers.connection, 'close', url);
    }
  });
});

describe('client address behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ trustProxy: 1, authRateLimitPerMinute: 3 });
  });
  after(() => t.close());

  // The proxy (127.0.0.1 here) appends the address it saw; anything further left is the client's own writing.
  const login = (forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'nobody@example.com', password: 'whatever1' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  test('rotating the leftmost X-Forwarded-For value does not escape the rate limit; the real last hop counts', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(`203.0.113.${i}, 198.51.100.7`)).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
    assert.equal((await login('203.0.113.1, 198.51.100.8')).statusCode, 401, 'another real client has its own budget');
  });

  test("the shipped nginx config sets X-Forwarded-For to the address it saw, never appends to the client's", () => {
    // Set, not appended: what a client wrote never reaches the service, so not even a hop count
    // set too high (docker-compose.yml has TRUST_PROXY=1) could make the service believe it.
    const config = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
    const [server, ...locations] = config.split(/^\s*location\s/m);
    assert.ok(locations.length >= 2, 'every proxied location');
    assert.match(server, /^\s*proxy_set_header X-Forwarded-For \$remote_addr;$/m, 'set once for the whole server');
    // A location with a proxy_set_header of its own would inherit none of the server's.
    for (const location of locations) assert.doesNotMatch(location, /proxy_set_header/, location.slice(0, 60));
    assert.doesNotMatch(config, /\$proxy_add_x_forwarded_for|\$http_x_forwarded_for/);
  });
});

describe('client address without a trusted proxy', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ authRateLimitPerMinute: 2 });
  });
  after(() => t.close());

  test('X-Forwarded-For is ignored: the socket address counts', async () => {
    assert.equal(t.config.trustProxy, false);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const reply = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nobody@example.com', password: 'whatever1' },
        remoteAddress: '192.0.2.10',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      statuses.push(reply.statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 429]);
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

  test('request lines carry the route and the query with secret-looking values redacted, never the full URL', async () => {
    const secrets = ['tok-AAAA1111', 'acc-BBBB2222', 'otp-CCCC3333', 'pw-DDDD4444', 'sig-EEEE5555', 'sec-FFFF6666', 'key-GGGG7777', 'enc-HHHH8888'];
    const query = [
      `token=${secrets[0]}`,
      `Access_Token=${secrets[1]}`,
      `OTP=${secrets[2]}`,
      `password=${secrets[3]}`,
      `signature=${secrets[4]}`,
      `client_secret=${secrets[5]}`,
      `api-KEY=${secrets[6]}`,
      `%74oken=${secrets[7]}`,
      'limit=5',
    ].join('&');
    const requestId = 'log-redaction-1';
    await call(t.app, 'GET', `/rides/requested?${query}`, { headers: { 'x-request-id': requestId } });
    await call(t.app, 'GET', `/rides/status/12345?token=${secrets[0]}`, { headers: { 'x-request-id': 'log-redaction-2' } });
    const entries = lines.flatMap((line) => line.split('\n')).filter(Boolean).map((line) => JSON.parse(line));
    // A caller's own id is logged beside ours, as a field of the request.
    const incoming = entries.find((entry) => entry.req?.clientRequestId === requestId);
    assert.ok(incoming, 'the request was logged with the id the caller sent');
    assert.notEqual(incoming.reqId, requestId);
    assert.equal(incoming.req.route, '/rides/requested');
    assert.equal(incoming.req.url, undefined, 'no raw URL');
    assert.match(incoming.req.query, /limit=5/, 'harmless parameters stay readable');
    assert.match(incoming.req.query, /token=\[redacted\]/);
    const byRoute = entries.find((entry) => entry.req?.clientRequestId === 'log-redaction-2');
    assert.equal(byRoute.req.route, '/rides/status/:rideId', 'path parameters are not logged, the route is');
    const log = lines.join('');
    for (const secret of secrets) assert.ok(!log.includes(secret), `log contains ${secret}`);
    assert.ok(!JSON.stringify(byRoute).includes('12345'), 'the ride id of the path is not in the request line');
  });
});
