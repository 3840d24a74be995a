import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';

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
