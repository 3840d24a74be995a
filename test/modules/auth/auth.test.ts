import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, uniqueEmail } from '../../helpers/factories.ts';

const password = 'a long enough password';

async function requestOtp(t: TestApp, email: string, name = 'Asha') {
  const mailsBefore = t.smtp.mails.length;
  const reply = await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name, email } });
  return { reply, otp: reply.status === 200 ? await t.smtp.otpFor(email, mailsBefore) : undefined };
}

describe('sign-up, login, refresh and logout', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ adminEmails: new Set(['boss@example.com']) });
  });
  after(() => t.close());

  test('the whole flow works with the code from a real mail', async () => {
    const email = uniqueEmail();
    const { reply, otp } = await requestOtp(t, email);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.emailSent, true);
    assert.equal(typeof reply.body.message, 'string');
    const expiresIn = Date.parse(reply.body.expiresAt) - t.clock.now();
    assert.ok(expiresIn > 9 * 60_000 && expiresIn <= 10 * 60_000, `expiresAt is ten minutes ahead, got ${expiresIn} ms`);
    assert.match(otp!, /^\d{6}$/);

    const signup = await call(t.app, 'POST', '/auth/signup', { body: { name: 'Asha', email, password, otp } });
    assert.equal(signup.status, 200);
    assert.equal(typeof signup.body.message, 'string');

    const login = await call(t.app, 'POST', '/auth/login', { body: { email, password } });
    assert.equal(login.status, 200);
    const tokens = login.body;
    assert.equal(tokens.tokenType, 'Bearer');
    assert.equal(tokens.expiresIn, 3600);
    assert.equal(tokens.token, tokens.accessToken);
    assert.equal(tokens.name, 'Asha');
    assert.equal(tokens.role, 'USER');
    assert.ok(Number.isInteger(tokens.id));

    const settings = await call(t.app, 'GET', '/user-settings', { token: tokens.accessToken });
    assert.equal(settings.status, 200);
    assert.equal(settings.body.userId, tokens.id);

    const refreshed = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    assert.equal(refreshed.status, 200);
    assert.notEqual(refreshed.body.refreshToken, tokens.refreshToken);
    assert.equal(refreshed.body.id, tokens.id);
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: refreshed.body.accessToken })).status, 200);

    // Past the grace for parallel refreshes, a rotated token is spent.
    t.clock.advance((t.config.refreshReuseGraceSeconds + 1) * 1000);
    const oldAgain = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    assert.equal(oldAgain.status, 401, 'the rotated refresh token is spent once the grace is over');

    const logout = await call(t.app, 'POST', '/auth/logout', { body: { refreshToken: refreshed.body.refreshToken } });
    assert.equal(logout.status, 200);
    assert.equal(typeof logout.body.message, 'string');
    const afterLogout = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } });
    assert.equal(afterLogout.status, 401);
  });

  test('e-mails are trimmed and compared without case', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, `  ${email.toUpperCase()} `);
    assert.equal((await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp } })).status, 200);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: ` ${email.toUpperCase()}`, password } });
    assert.equal(login.status, 200);
  });

  test('unknown e-mail and wrong password get the same 401', async () => {
    const user = await signUp(t);
    const unknown = await call(t.app, 'POST', '/auth/login', { body: { email: uniqueEmail(), password } });
    const wrong = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: 'not the password' } });
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.deepEqual(unknown.body, wrong.body);
  });

  test('signup of an existing e-mail updates name, password and role and ends old sessions', async () => {
    const user = await signUp(t, { role: 'USER' });
    const { otp } = await requestOtp(t, user.email);
    const update = await call(t.app, 'POST', '/auth/signup', {
      body: { name: 'Renamed', email: user.email, password: 'a brand new password', otp, role: 'DRIVER' },
    });
    assert.equal(update.status, 200);
    assert.equal((await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } })).status, 401);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: 'a brand new password' } });
    assert.equal(login.status, 200);
    assert.equal(login.body.id, user.id, 'same account');
    assert.equal(login.body.name, 'Renamed');
    assert.equal(login.body.role, 'DRIVER');
    assert.equal((await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).status, 401);
  });

  test('the login role is honoured only when the account holds it', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const asked = async (role: unknown) =>
      (await call(t.app, 'POST', '/auth/login', { body: { email: driver.email, password: driver.password, role } })).body.role;
    assert.equal(await asked('DRIVER'), 'DRIVER');
    assert.equal(await asked('ADMIN'), 'DRIVER');
    assert.equal(await asked('RIDER'), 'DRIVER');
    assert.equal(await asked('PILOT'), 'DRIVER');
    assert.equal(await asked(undefined), 'DRIVER');

    const rider = await signUp(t, { role: 'USER' });
    const riderAsks = async (role: string) =>
      (await call(t.app, 'POST', '/auth/login', { body: { email: rider.email, password: rider.password, role } })).body.role;
    assert.equal(await riderAsks('RIDER'), 'RIDER', 'USER and RIDER are both riders');
    assert.equal(await riderAsks('DRIVER'), 'USER');
    assert.equal(await riderAsks('ADMIN'), 'USER');
  });

  test('signup role defaults to USER, and ADMIN is only for ADMIN_EMAILS', async () => {
    const plain = await signUp(t);
    assert.equal(plain.role, 'USER');

    const outsider = uniqueEmail();
    const { otp } = await requestOtp(t, outsider);
    const refused = await call(t.app, 'POST', '/auth/signup', { body: { name: 'X', email: outsider, password, otp, role: 'ADMIN' } });
    assert.equal(refused.status, 403);
    // The refusal says how to get in: the variable that lists operators, and the command that makes one.
    assert.equal(refused.body.code, 'ADMIN_NOT_ALLOWED');
    assert.match(refused.body.message, /ADMIN_EMAILS/);
    assert.match(refused.body.message, /npm run create-admin/);
    // The refusal did not burn the code.
    const asUser = await call(t.app, 'POST', '/auth/signup', { body: { name: 'X', email: outsider, password, otp } });
    assert.equal(asUser.status, 200);

    const admin = await signUp(t, { role: 'ADMIN', email: 'Boss@Example.com' });
    assert.equal(admin.role, 'ADMIN');
  });

  test('an unknown role at signup is a 400', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    const reply = await call(t.app, 'POST', '/auth/signup', { body: { name: 'X', email, password, otp, role: 'PILOT' } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.code, 'VALIDATION_FAILED');
  });

  test('missing or malformed fields are 400 with the error shape', async () => {
    const cases: Array<[string, unknown]> = [
      ['/auth/signup/request-otp', { name: 'A' }],
      ['/auth/signup/request-otp', { name: 'A', email: 'not-an-email' }],
      ['/auth/signup/request-otp', { name: '', email: uniqueEmail() }],
      ['/auth/signup', { name: 'A', email: uniqueEmail(), password: 'short', otp: '123456' }],
      ['/auth/signup', { name: 'A', email: uniqueEmail(), password: 'x'.repeat(129), otp: '123456' }],
      ['/auth/signup', { name: 'A', email: uniqueEmail(), password, otp: '12345' }],
      ['/auth/login', { email: uniqueEmail() }],
      ['/auth/login', { email: 42, password }],
      ['/auth/refresh', {}],
      ['/auth/logout', { refreshToken: 7 }],
    ];
    for (const [url, body] of cases) {
      const reply = await call(t.app, 'POST', url, { body });
      assert.equal(reply.status, 400, `${url} ${JSON.stringify(body)}`);
      assert.deepEqual(Object.keys(reply.body).sort(), ['code', 'error', 'message', 'statusCode']);
      assert.equal(reply.body.statusCode, 400);
      assert.equal(reply.body.error, 'Bad Request');
    }
  });
});

describe('signup codes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('a code expires after ten minutes', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    t.clock.advance(10 * 60_000 + 1);
    const reply = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.code, 'OTP_EXPIRED');
  });

  test('a code works once', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    assert.equal((await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp } })).status, 200);
    const again = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password: 'another password', otp } });
    assert.equal(again.status, 400);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email, password: 'another password' } });
    assert.equal(login.status, 401, 'the replayed code changed nothing');
  });

  test('five wrong tries kill the code, even the right one is refused after', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const reply = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp: wrong } });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.code, 'OTP_INVALID');
    }
    const right = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp } });
    assert.equal(right.status, 400);
    assert.equal(right.body.code, 'OTP_LOCKED');

    const { otp: fresh } = await requestOtp(t, email);
    assert.equal((await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp: fresh } })).status, 200);
  });

  test('parallel wrong guesses cannot exceed five tries', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0'));
    const replies = await Promise.all(
      guesses.map((guess) => call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp: guess } })),
    );
    assert.equal(replies.filter((r) => r.body.code === 'OTP_INVALID').length, 5);
    assert.equal(replies.filter((r) => r.body.code === 'OTP_LOCKED').length, 15);
  });

  test('a new request replaces the previous code', async () => {
    const email = uniqueEmail();
    const { otp: first } = await requestOtp(t, email);
    const { otp: second } = await requestOtp(t, email);
    if (first !== second) {
      const old = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp: first } });
      assert.equal(old.status, 400);
    }
    assert.equal((await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email, password, otp: second } })).status, 200);
  });

  test('the sign-up code is mailed in the language the browser asks for, else in English', async () => {
    const email = uniqueEmail();
    const before = t.smtp.mails.length;
    const reply = await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'Asha', email }, headers: { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' } });
    assert.equal(reply.status, 200);
    const mail = await t.smtp.lastTo(email, before);
    assert.equal(mail.subject, 'आपका साइन-अप कोड');
    assert.match(mail.text, /^नमस्ते Asha,\n\nआपका साइन-अप कोड \d{6} है। यह 10 मिनट में समाप्त हो जाएगा।/);

    const french = uniqueEmail();
    const beforeFrench = t.smtp.mails.length;
    await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'Asha', email: french }, headers: { 'accept-language': 'fr-FR,fr' } });
    assert.equal((await t.smtp.lastTo(french, beforeFrench)).subject, 'Your sign-up code');
  });

  test('signup without any requested code is a 400', async () => {
    const reply = await call(t.app, 'POST', '/auth/signup', { body: { name: 'A', email: uniqueEmail(), password, otp: '123456' } });
    assert.equal(reply.status, 400);
  });

  test('codes are stored hashed', async () => {
    const email = uniqueEmail();
    const { otp } = await requestOtp(t, email);
    const { connectDatabase } = await import('../../../src/db/connect.ts');
    const { db } = connectDatabase(t.config.database);
    try {
      const row = await db.selectFrom('signup_otps').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      assert.ok(!row.code_hash.includes(otp!));
      assert.match(row.code_hash, /^[0-9a-f]{64}$/);
    } finally {
      await db.destroy();
    }
  });
});

describe('resend cooldown', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ otpResendCooldownSeconds: 30 });
  });
  after(() => t.close());

  test('a second request within the cooldown is a 429 with Retry-After', async () => {
    const email = uniqueEmail();
    assert.equal((await requestOtp(t, email)).reply.status, 200);
    t.clock.advance(10_000);
    const again = await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'A', email } });
    assert.equal(again.status, 429);
    assert.equal(again.headers['retry-after'], '20');
    t.clock.advance(20_000);
    assert.equal((await requestOtp(t, email)).reply.status, 200);
  });
});

describe('mail delivery failure', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1', otpResendCooldownSeconds: 30 });
  });
  after(() => t.close());

  test('an unreachable SMTP server is a 503 and the user may ask again at once', async () => {
    const email = uniqueEmail();
    const first = await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'A', email } });
    assert.equal(first.status, 503);
    const second = await call(t.app, 'POST', '/auth/signup/request-otp', { body: { name: 'A', email } });
    assert.equal(second.status, 503, 'not 429: the failed code did not start a cooldown');
  });
});

describe('refresh tokens', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('two parallel refreshes with one token both succeed, and both new pairs belong to the live session', async () => {
    const user = await signUp(t);
    const both = await Promise.all([1, 2].map(() => call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })));
    for (const reply of both) assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.notEqual(both[0].body.refreshToken, both[1].body.refreshToken);
    for (const reply of both) {
      assert.equal((await call(t.app, 'GET', '/user-settings', { token: reply.body.accessToken })).status, 200);
      assert.equal((await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: reply.body.refreshToken } })).status, 200, 'still signed in');
    }
  });

  test('a rotated token presented again within the grace gets a pair; after the grace it revokes the family', async () => {
    const user = await signUp(t);
    const first = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    t.clock.advance((t.config.refreshReuseGraceSeconds - 1) * 1000);
    const within = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal(within.status, 200, JSON.stringify(within.body));
    t.clock.advance(2_000);
    const after = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'TOKEN_REUSED');
    for (const pair of [first, within]) {
      assert.equal((await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: pair.body.refreshToken } })).status, 401, 'the whole session ended');
    }
  });

  test('replaying a rotated refresh token revokes the whole family', async () => {
    const user = await signUp(t);
    const first = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal(first.status, 200);
    // Past the grace for parallel refreshes: now it is a replay.
    t.clock.advance((t.config.refreshReuseGraceSeconds + 1) * 1000);
    const replay = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 'TOKEN_REUSED');
    const legit = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
    assert.equal(legit.status, 401, 'the thief and the owner both lose the session');
  });

  test('a reuse in one session leaves other logins alone', async () => {
    const user = await signUp(t);
    const other = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal((await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: other.body.refreshToken } })).status, 200);
  });

  test('an access token is not a refresh token', async () => {
    const user = await signUp(t);
    const reply = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.token } });
    assert.equal(reply.status, 401);
    assert.equal((await call(t.app, 'POST', '/auth/logout', { body: { refreshToken: user.token } })).status, 401);
  });

  test('refresh tokens expire with their family', async () => {
    const user = await signUp(t);
    t.clock.advance(t.config.refreshTokenTtlSeconds * 1000 + 1000);
    const reply = await call(t.app, 'POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.code, 'TOKEN_EXPIRED');
  });

  test('logging out twice is fine', async () => {
    const user = await signUp(t);
    assert.equal((await call(t.app, 'POST', '/auth/logout', { body: { refreshToken: user.refreshToken } })).status, 200);
    assert.equal((await call(t.app, 'POST', '/auth/logout', { body: { refreshToken: user.refreshToken } })).status, 200);
  });
});
