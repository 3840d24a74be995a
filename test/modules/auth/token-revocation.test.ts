import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { assertError } from '../../helpers/rides.ts';

// A change of role or password, a re-signup, a block and an erasure end every token issued before
// it, access tokens included, at once on the instance that made the change and within a second on
// every other one, without a database read per request.

const ADMIN_EMAIL = 'revocation-operator@example.com';
const settingsOf = (app: FastifyInstance, token: string) => call(app, 'GET', '/user-settings', { token });

/** Signs the user up again (new code by mail) with these fields. */
async function signUpAgain(t: TestApp, user: TestUser, fields: { role?: string; password?: string }) {
  const mailsBefore = t.smtp.mails.length;
  assert.equal((await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: user.name, email: user.email } })).status, 200);
  const otp = await t.smtp.otpFor(user.email, mailsBefore);
  return call(t.app, 'POST', '/auth/signup', { body: { name: user.name, email: user.email, password: fields.password ?? user.password, otp, role: fields.role ?? user.role } });
}

describe('tokens end with account changes', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
  });
  after(() => t.close());

  test('a DRIVER who signs up again as USER: the old access token is refused at once, a login right after works', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    assert.equal((await call(t.app, 'GET', '/drivers/me/offers', { token: driver.token })).status, 200, 'known to the verified-token cache');
    assert.equal((await signUpAgain(t, driver, { role: 'USER' })).status, 200);

    assertError(await call(t.app, 'GET', '/drivers/me/offers', { token: driver.token }), 401, 'TOKEN_REVOKED');
    assertError(await settingsOf(t.app, driver.token), 401, 'TOKEN_REVOKED');
    assertError(await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: driver.refreshToken } }), 401);
    // The clock has not moved: the new token is issued in the same second (and millisecond) as the change.
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: driver.email, password: driver.password } });
    assert.equal(login.body.role, 'USER');
    assert.equal((await settingsOf(t.app, login.body.accessToken)).status, 200);
  });

  test('a password change through sign-up ends the old tokens; other accounts keep theirs', async () => {
    const [user, bystander] = [await signUp(t), await signUp(t)];
    assert.equal((await signUpAgain(t, user, { password: 'an entirely new password' })).status, 200);
    assertError(await settingsOf(t.app, user.token), 401, 'TOKEN_REVOKED');
    assert.equal((await settingsOf(t.app, bystander.token)).status, 200);
  });

  test('a blocked account: every token refused at once, login and refresh refused, sign-up again does not unblock it', async () => {
    const user = await signUp(t);
    const otherDevice = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    assert.equal((await call(t.app, 'POST', `/admin/users/${user.id}/block`, { token: admin.token, body: { reason: 'payment fraud' } })).status, 200);

    for (const token of [user.token, otherDevice.body.accessToken]) assertError(await settingsOf(t.app, token), 401, 'TOKEN_REVOKED');
    assertError(await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } }), 401);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    assertError(login, 403, 'ACCOUNT_BLOCKED');
    assert.match(login.body.message, /blocked/);
    assertError(await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: 'not the password' } }), 401, 'INVALID_CREDENTIALS');

    assertError(await signUpAgain(t, user, { password: 'a password to get back in' }), 403, 'ACCOUNT_BLOCKED');
    assertError(await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: 'a password to get back in' } }), 401, 'INVALID_CREDENTIALS');
    const listed = await call(t.app, 'GET', `/admin/users?status=blocked&q=${encodeURIComponent(user.email)}`, { token: admin.token });
    assert.deepEqual(listed.body.items.map((a: { id: number }) => a.id), [user.id], 'still blocked');

    assert.equal((await call(t.app, 'POST', `/admin/users/${user.id}/unblock`, { token: admin.token })).status, 200);
    assertError(await settingsOf(t.app, user.token), 401, 'TOKEN_REVOKED');
    const again = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    assert.equal((await settingsOf(t.app, again.body.accessToken)).status, 200, 'unblocked, a new login works');
  });

  test("an erased account's tokens are refused, and its e-mail signs up as a new account with a new id", async () => {
    const user = await signUp(t, { role: 'RIDER' });
    assert.equal((await call(t.app, 'DELETE', `/admin/users/${user.id}`, { token: admin.token })).status, 200);
    assertError(await settingsOf(t.app, user.token), 401, 'TOKEN_REVOKED');
    assertError(await call(t.app, 'POST', '/rides/book', { token: user.token, body: {} }), 401, 'TOKEN_REVOKED');
    assertError(await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } }), 401, 'INVALID_CREDENTIALS');
    const fresh = await signUp(t, { email: user.email });
    assert.ok(fresh.id > user.id, 'ids are never reused');
    assert.equal((await settingsOf(t.app, fresh.token)).body.userId, fresh.id);
  });

  test('a token with a trailing "=" or any other change to its text is refused', async () => {
    const user = await signUp(t);
    const [header, payload, signature] = user.token.split('.');
    for (const forged of [`${user.token}=`, `${user.token}==`, `${header}=.${payload}.${signature}`, `${header}.${payload}=.${signature}`, `${user.token}.`]) {
      assertError(await settingsOf(t.app, forged), 401, 'INVALID_TOKEN');
    }
    assert.equal((await settingsOf(t.app, user.token)).status, 200);
  });
});

describe('another instance', () => {
  let t: TestApp;
  let other: FastifyInstance;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
    // Same database, its own event bus (a prefix of its own under Redis): only the poll can tell it.
    other = await buildApp({ ...t.config, redisKeyPrefix: `test:${randomBytes(6).toString('hex')}:` }, { clock: t.clock, logger: false });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  test('refuses a blocked user within a second even when the announcement never reaches it', async () => {
    const user = await signUp(t);
    assert.equal((await settingsOf(other, user.token)).status, 200);
    assert.equal((await call(t.app, 'POST', `/admin/users/${user.id}/block`, { token: admin.token, body: { reason: 'abuse' } })).status, 200);
    const blockedAt = Date.now();
    let reply = await settingsOf(other, user.token);
    while (reply.status === 200 && Date.now() - blockedAt < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      reply = await settingsOf(other, user.token);
    }
    const tookMs = Date.now() - blockedAt;
    assertError(reply, 401, 'TOKEN_REVOKED');
    assert.ok(tookMs < 1000, `refused after ${tookMs} ms`);
  });
});

describe('ADMIN_EMAILS', () => {
  test('an ADMIN whose e-mail is no longer listed becomes a USER (at login, or when an instance starts), and their tokens end', async () => {
    const listed = uniqueEmail('listed-admin');
    const later = uniqueEmail('later-admin');
    const t = await createTestApp({ adminEmails: new Set([listed, later]) });
    // An instance whose list no longer has `later`, started before that admin signed up.
    const unlisting = await buildApp({ ...t.config, adminEmails: new Set([listed]) }, { clock: t.clock, logger: false });
    try {
      const first = await signUp(t, { role: 'ADMIN', email: listed });
      const second = await signUp(t, { role: 'ADMIN', email: later });
      const operatorMade = uniqueEmail('operator-made-admin');
      assert.equal((await call(t.app, 'POST', '/admin/users', { token: first.token, body: { name: 'Ops', email: operatorMade, password: 'a long password', role: 'ADMIN' } })).status, 200);

      // At login on the instance that no longer lists the e-mail: a USER from now on, everywhere.
      const login = await call(unlisting, 'POST', '/auth/login', { body: { email: later, password: second.password, role: 'ADMIN' } });
      assert.equal(login.body.role, 'USER');
      assertError(await call(unlisting, 'GET', '/admin/audit', { token: second.token }), 401, 'TOKEN_REVOKED');
      assert.equal((await call(t.app, 'POST', '/auth/login', { body: { email: later, password: second.password, role: 'ADMIN' } })).body.role, 'USER', 'the stored role changed');

      // An instance started with an empty list demotes at start every ADMIN the list made, not those an operator made.
      const restarted = await buildApp({ ...t.config, adminEmails: new Set() }, { clock: t.clock, logger: false });
      try {
        assertError(await call(restarted, 'GET', '/admin/audit', { token: first.token }), 401, 'TOKEN_REVOKED');
        assert.equal((await call(restarted, 'POST', '/auth/login', { body: { email: listed, password: first.password } })).body.role, 'USER');
        const kept = await call(restarted, 'POST', '/auth/login', { body: { email: operatorMade, password: 'a long password' } });
        assert.equal(kept.body.role, 'ADMIN');
        assert.equal((await call(restarted, 'GET', '/admin/audit', { token: kept.body.accessToken })).status, 200);
      } finally {
        await restarted.close();
      }
    } finally {
      await unlisting.close();
      await t.close();
    }
  });
});

describe('live connections', () => {
  test("a blocked user's open realtime connection is closed (4401)", async () => {
    const t = await createTestApp({ adminEmails: new Set([ADMIN_EMAIL]) });
    try {
      const admin = await signUp(t, { role: 'ADMIN', email: ADMIN_EMAIL });
      const user = await signUp(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = new WebSocket(`ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/realtime`);
      const messages: Array<{ type: string }> = [];
      socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
      const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      socket.send(JSON.stringify({ type: 'auth', token: user.token }));
      for (let waited = 0; !messages.some((m) => m.type === 'ready') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(messages.some((m) => m.type === 'ready'), 'connected');

      assert.equal((await call(t.app, 'POST', `/admin/users/${user.id}/block`, { token: admin.token, body: { reason: 'abuse' } })).status, 200);
      const code = await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open after 2 s'), 2000))]);
      assert.equal(code, 4401);
    } finally {
      await t.close();
    }
  });

  test("a blocked user's notification stream ends, and their old token cannot open it again", async () => {
    const t = await createTestApp({ adminEmails: new Set([ADMIN_EMAIL]) });
    try {
      const admin = await signUp(t, { role: 'ADMIN', email: ADMIN_EMAIL });
      const user = await signUp(t);
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const controller = new AbortController();
      const stream = await fetch(`${base}/notifications/stream`, { headers: { authorization: `Bearer ${user.token}` }, signal: controller.signal });
      assert.equal(stream.status, 200);
      const ended = (async () => {
        for await (const chunk of stream.body!) void chunk;
        return 'ended';
      })();
      assert.equal((await call(t.app, 'POST', `/admin/users/${user.id}/block`, { token: admin.token, body: { reason: 'abuse' } })).status, 200);
      const outcome = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still open after 2 s'), 2000))]);
      controller.abort();
      assert.equal(outcome, 'ended');
      const again = await fetch(`${base}/notifications/stream`, { headers: { authorization: `Bearer ${user.token}` } });
      assert.equal(again.status, 401);
      await again.body?.cancel();
    } finally {
      await t.close();
    }
  });
});
