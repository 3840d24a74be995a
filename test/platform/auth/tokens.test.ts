import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { parseSubject } from '../../../src/platform/auth/tokens.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('access tokens on a protected route', () => {
  let t: TestApp;
  let user: TestUser;
  const protectedCall = (authorization?: string) =>
    call(t.app, 'GET', '/user-settings', { headers: authorization === undefined ? {} : { authorization } });

  before(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  after(() => t.close());

  test('carry sub, role, typ, jti, iat and exp', () => {
    const claims = decode(user.token);
    assert.equal(claims.sub, String(user.id));
    assert.equal(claims.role, 'USER');
    assert.equal(claims.typ, 'access');
    assert.equal(typeof claims.jti, 'string');
    assert.equal(claims.exp - claims.iat, 3600);
  });

  test('a valid token passes', async () => {
    assert.equal((await protectedCall(`Bearer ${user.token}`)).status, 200);
  });

  test('no header, another scheme or an empty token is 401', async () => {
    for (const header of [undefined, `Basic ${user.token}`, 'Bearer', 'Bearer ', user.token]) {
      const reply = await protectedCall(header);
      assert.equal(reply.status, 401, String(header));
      assert.equal(reply.body.statusCode, 401);
    }
  });

  test('a tampered payload is 401', async () => {
    const [header, , signature] = user.token.split('.');
    const forged = `${header}.${b64({ ...decode(user.token), role: 'ADMIN' })}.${signature}`;
    assert.equal((await protectedCall(`Bearer ${forged}`)).status, 401);
  });

  test('a tampered signature is 401', async () => {
    const flipped = user.token.slice(0, -2) + (user.token.endsWith('AA') ? 'BB' : 'AA');
    assert.equal((await protectedCall(`Bearer ${flipped}`)).status, 401);
  });

  test('alg none is refused', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(decode(user.token))}.`;
    assert.equal((await protectedCall(`Bearer ${unsigned}`)).status, 401);
  });

  test('a token signed with another key is refused', async () => {
    const claims = decode(user.token);
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another secret that is at least 32 bytes'));
    assert.equal((await protectedCall(`Bearer ${foreign}`)).status, 401);
  });

  test('HS512 with the right key is still refused (algorithm allow-list)', async () => {
    const claims = decode(user.token);
    const other = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(t.config.jwtSecret));
    assert.equal((await protectedCall(`Bearer ${other}`)).status, 401);
  });

  test('a refresh token is not an access token', async () => {
    const reply = await protectedCall(`Bearer ${user.refreshToken}`);
    assert.equal(reply.status, 401);
    assert.equal(reply.body.code, 'INVALID_TOKEN');
  });

  test('an expired token is 401', async () => {
    const fresh = await signUp(t);
    t.clock.advance(3601 * 1000);
    const reply = await call(t.app, 'GET', '/user-settings', { token: fresh.token });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.code, 'TOKEN_EXPIRED');
  });
});

describe('token lifetime from configuration', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 120 });
  });
  after(() => t.close());

  test('expiresIn follows ACCESS_TOKEN_TTL_SECONDS', async () => {
    const user = await signUp(t);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    assert.equal(login.body.expiresIn, 120);
    t.clock.advance(119_000);
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: login.body.token })).status, 200);
    t.clock.advance(2_000);
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: login.body.token })).status, 401);
  });
});

describe('token subjects', () => {
  let t: TestApp;
  let user: TestUser;
  /** A token the service's own secret signed, as an access token of `user` but with this subject. */
  const withSubject = (sub: string) =>
    new SignJWT({ ...decode(user.token), sub }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(t.config.jwtSecret));

  before(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  after(() => t.close());

  test('parseSubject reads only a positive decimal id in the id range, written without decoration', () => {
    assert.equal(parseSubject('1'), 1);
    assert.equal(parseSubject('2147483647'), 2_147_483_647);
    for (const sub of ['0x1', '1.0', ' 1', '1 ', '+1', '01', '0b1', '1e0', '-1', '0', '', '2147483648', '9007199254740991', '１', 1, null]) {
      assert.equal(parseSubject(sub), undefined, JSON.stringify(sub));
    }
  });

  test("a subject that only Number() reads as the user's id is refused everywhere: REST and the realtime channel", async () => {
    const url = await realtimeUrl(t.app);
    // Spellings of this user's id; the first user of the app is 1, so "0x1" and "1.0" were user 1.
    const id = String(user.id);
    for (const sub of [`0x${user.id.toString(16)}`, `${id}.0`, ` ${id}`, `+${id}`, `0${id}`, `0b${user.id.toString(2)}`, `${id}e0`]) {
      const token = await withSubject(sub);
      const reply = await call(t.app, 'GET', '/user-settings', { token });
      assert.deepEqual([reply.status, reply.body.code], [401, 'INVALID_TOKEN'], sub);
      const socket = await TestSocket.open(url);
      socket.send({ type: 'auth', token });
      assert.equal((await socket.closedBy(`a token for "${sub}"`)).code, 4401, sub);
    }
  });

  test('a token for an account that does not exist is 401 on every route and 4401 on the realtime channel, never a 5xx or ready', async () => {
    const url = await realtimeUrl(t.app);
    for (const sub of ['999999', '2147483647']) {
      const token = await withSubject(sub);
      for (const [method, path, body] of [
        ['GET', '/user-settings', undefined],
        ['PUT', '/user-settings', { quietRide: true }],
        ['POST', '/rides/book', { pickupLocation: 'A', dropLocation: 'B' }],
        ['GET', '/rides/history', undefined],
        ['GET', '/rides/active', undefined],
        ['GET', '/notifications/history', undefined],
      ] as const) {
        const reply = await call(t.app, method, path, { token, body });
        assert.deepEqual([reply.status, reply.body.code], [401, 'INVALID_TOKEN'], `${method} ${path} for ${sub}`);
      }
      const socket = await TestSocket.open(url);
      socket.send({ type: 'auth', token });
      assert.equal((await socket.closedBy(`a token for account ${sub}`)).code, 4401);
      assert.deepEqual(socket.received, [], 'no ready');
    }
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: await withSubject(String(user.id)) })).status, 200, 'the plain id still works');
  });
});
