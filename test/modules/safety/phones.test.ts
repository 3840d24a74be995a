import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { PhoneStandIn } from '../../../scripts/phone-stand-in.ts';
import { routes } from '../../../src/contract/routes.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { newPhone, startPhoneProvider, verifiedPhone } from '../../helpers/phone-provider.ts';
import { assertError, assertOk } from '../../helpers/rides.ts';

// An account's phone number, verified by an SMS code (decisions.md "Safety"), through the SMS
// provider stand-in over real HTTP.

const MINUTE = 60_000;

describe('verified phone numbers', () => {
  let t: TestApp;
  let provider: PhoneStandIn;
  before(async () => {
    provider = await startPhoneProvider();
    t = await createTestApp({ smsUrl: provider.smsUrl });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  const phoneOf = async (user: TestUser) => asReply(await apiOf(t, user).send(routes.safety.phone));
  const sendCode = async (user: TestUser, phone: string) => asReply(await apiOf(t, user).send(routes.safety.sendPhoneCode, { body: { phone } }));
  const verify = async (user: TestUser, code: string) => asReply(await apiOf(t, user).send(routes.safety.verifyPhone, { body: { code } }));
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  test('a code sent by SMS makes the number the account’s, shown to its owner alone', async () => {
    const rider = await signUp(t);
    const phone = newPhone();
    const sent = await sendCode(rider, phone);
    assertOk(sent, 'send code');
    assert.equal(sent.body.smsSent, true);
    const code = provider.lastCodeTo(phone);
    assert.ok(code, 'the stand-in received the code');
    const waiting = await phoneOf(rider);
    assert.deepEqual({ ...waiting.body, codeExpiresAt: undefined }, { phone: null, verifiedAt: null, pendingPhone: phone, codeExpiresAt: undefined });

    const verified = await verify(rider, code);
    assertOk(verified, 'verify');
    assert.equal(verified.body.phone, phone);
    assert.equal(verified.body.verifiedAt, new Date(t.clock.now()).toISOString());
    assert.equal(verified.body.pendingPhone, null);
    assertError(await verify(rider, code), 400, 'OTP_INVALID');

    const other = await signUp(t);
    const theirs = await phoneOf(other);
    assertOk(theirs);
    assert.equal(theirs.body.phone, null, "another account sees its own (none), never this one's");
    assert.ok(!JSON.stringify(theirs.body).includes(phone));
  });

  test('the stored code is not the code: a wrong one is refused, five wrong ones end it', async () => {
    const rider = await signUp(t);
    const phone = newPhone();
    assertOk(await sendCode(rider, phone));
    const code = provider.lastCodeTo(phone)!;
    for (let left = 4; left >= 1; left--) {
      const reply = await verify(rider, wrong(code));
      assertError(reply, 400, 'OTP_INVALID');
      assert.match(reply.body.message, new RegExp(`${left} tries left`));
    }
    assertError(await verify(rider, wrong(code)), 400, 'OTP_INVALID');
    assertError(await verify(rider, code), 400, 'OTP_LOCKED');
    assert.equal((await phoneOf(rider)).body.phone, null);
  });

  test('a code expires after 10 minutes; a new number stays pending while the verified one stays', async () => {
    const rider = await signUp(t);
    const first = await verifiedPhone(t, provider, rider);
    const second = newPhone();
    assertOk(await sendCode(rider, second));
    const code = provider.lastCodeTo(second)!;
    t.clock.advance(10 * MINUTE);
    assertError(await verify(rider, code), 400, 'OTP_EXPIRED');
    const now = await phoneOf(rider);
    assert.equal(now.body.phone, first);
    assert.equal(now.body.pendingPhone, null, 'an expired code leaves nothing pending');
  });

  test('numbers are E.164 and codes six digits', async () => {
    const rider = await signUp(t);
    for (const phone of ['98450 12345', '+91 98450 12345', '+0123456789', '+91984501234567890']) assertError(await sendCode(rider, phone), 400, 'VALIDATION_FAILED');
    assertError(await verify(rider, '12345'), 400, 'VALIDATION_FAILED');
    assertError(await verify(rider, '123456'), 400, 'OTP_INVALID');
  });

  test('a provider that fails answers 503 and leaves no code behind, so the user may ask again at once', async () => {
    const rider = await signUp(t);
    const phone = newPhone();
    provider.mode = 'fail';
    try {
      assertError(await sendCode(rider, phone), 503, 'SMS_UNAVAILABLE');
    } finally {
      provider.mode = 'answer';
    }
    assert.equal((await phoneOf(rider)).body.pendingPhone, null);
    assertOk(await sendCode(rider, phone));
  });

  test('an erased account’s number goes with it', async () => {
    const { t: withAdmin, admin } = await createTestAppWithAdmin({ smsUrl: provider.smsUrl });
    try {
      const rider = await signUp(withAdmin);
      await verifiedPhone(withAdmin, provider, rider);
      assertOk(asReply(await apiOf(withAdmin, admin).send(routes.admin.erase, { params: { userId: rider.id } })), 'erase');
      const { db } = connectDatabase(withAdmin.config.database);
      try {
        const rows = await db.selectFrom('account_phones').select('phone').where('user_id', '=', rider.id).execute();
        assert.deepEqual(rows, []);
      } finally {
        await db.destroy();
      }
    } finally {
      await withAdmin.close();
    }
  });
});

describe('verified phone numbers: limits and no provider', () => {
  test('one code per cooldown and at most five an hour per account', async () => {
    const provider = await startPhoneProvider();
    // The clock moves up to an hour and then some: the rider's token must outlive it (an hour's by default).
    const t = await createTestApp({ smsUrl: provider.smsUrl, otpResendCooldownSeconds: 30, accessTokenTtlSeconds: 3 * 3_600 });
    try {
      const rider = await signUp(t);
      const send = async () => asReply(await apiOf(t, rider).send(routes.safety.sendPhoneCode, { body: { phone: newPhone() } }));
      assertOk(await send());
      const cooling = await send();
      assertError(cooling, 429, 'OTP_COOLDOWN');
      assert.equal(cooling.headers['retry-after'], '30');
      t.clock.advance(60 * MINUTE - (t.clock.now() % (60 * MINUTE)));
      for (let i = 0; i < 5; i++) {
        assertOk(await send(), `code ${i + 1}`);
        t.clock.advance(30_000);
      }
      assertError(await send(), 429, 'RATE_LIMITED');
    } finally {
      await t.close();
      await provider.close();
    }
  });

  test('without SMS_URL the code is written to the log, and verifies', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()) });
    const t = await createTestApp({}, { logger: { level: 'info', stream } });
    try {
      const rider = await signUp(t);
      const phone = newPhone();
      const sent = asReply(await apiOf(t, rider).send(routes.safety.sendPhoneCode, { body: { phone } }));
      assertOk(sent);
      assert.equal(sent.body.smsSent, false);
      assert.match(sent.body.message, /SMS_URL is not set/);
      const logged = lines.map((line) => JSON.parse(line) as { sms?: { to: string; text: string } }).findLast((entry) => entry.sms?.to === phone);
      const code = logged?.sms?.text.match(/\b\d{6}\b/)?.[0];
      assert.ok(code, 'the code is in the log');
      const verified = asReply(await apiOf(t, rider).send(routes.safety.verifyPhone, { body: { code } }));
      assertOk(verified);
      assert.equal(verified.body.phone, phone);
    } finally {
      await t.close();
    }
  });
});
