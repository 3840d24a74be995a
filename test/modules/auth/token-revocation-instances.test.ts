import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, smtpSink } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/factories.ts';
import { POSTGRES_URL, productionServicesMissing, REDIS_URL } from '../../helpers/production.ts';
import { http, startServer, type ServerProcess } from '../../helpers/server-process.ts';
import type { SmtpSink } from '../../helpers/smtp-sink.ts';

const missing = await productionServicesMissing();
const ADMIN_EMAIL = 'two-instance-operator@example.com';

describe('token revocation on two instances sharing PostgreSQL and Redis', { skip: missing }, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let smtp: SmtpSink;
  let a: ServerProcess;
  let b: ServerProcess;

  const signUp = async (role: 'RIDER' | 'DRIVER' | 'ADMIN', email = uniqueEmail(role.toLowerCase())) => {
    const mailsBefore = smtp.mails.length;
    assert.equal((await http(`${a.url}/auth/signup/request-otp`, 'POST', { name: role, email })).status, 200);
    const otp = await smtp.otpFor(email, mailsBefore);
    assert.equal((await http(`${b.url}/auth/signup`, 'POST', { name: role, email, password: 'password-123', otp, role })).status, 200);
    const login = await http(`${a.url}/auth/login`, 'POST', { email, password: 'password-123', role });
    return { id: login.body.id as number, token: login.body.accessToken as string };
  };

  /** How long after `since` each instance first refused the token (polling every 10 ms, for at most 2 s). */
  const refusedAfter = async (token: string, since: number) =>
    Promise.all([a, b].map(async (server) => {
      while (Date.now() - since < 2000) {
        const reply = await http(`${server.url}/user-settings`, 'GET', undefined, token);
        if (reply.status === 401) return Date.now() - since;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Infinity;
    }));

  before(async () => {
    database = await freshDatabase(POSTGRES_URL);
    smtp = await smtpSink();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `test-revocation-${randomBytes(4).toString('hex')}:`,
      JWT_SECRET: 'a-shared-secret-of-at-least-thirty-two-bytes',
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: ADMIN_EMAIL,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      OTP_RESEND_COOLDOWN_SECONDS: '0',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });

  after(async () => {
    for (const server of [a, b]) {
      if (server?.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
    await database?.drop();
  });

  test('a user blocked on A is refused on both instances within a second, cached tokens included', async () => {
    const admin = await signUp('ADMIN', ADMIN_EMAIL);
    const user = await signUp('DRIVER');
    for (const server of [a, b]) assert.equal((await http(`${server.url}/user-settings`, 'GET', undefined, user.token)).status, 200);
    const block = await http(`${a.url}/admin/users/${user.id}/block`, 'POST', { reason: 'fraud' }, admin.token);
    assert.equal(block.status, 200);
    const [onA, onB] = await refusedAfter(user.token, Date.now());
    assert.ok(onA < 1000 && onB < 1000, `refused after ${onA} ms on A and ${onB} ms on B`);
  });

  test('an erasure on B ends the tokens on A as well', async () => {
    const admin = await signUp('ADMIN', ADMIN_EMAIL);
    const user = await signUp('RIDER');
    assert.equal((await http(`${a.url}/user-settings`, 'GET', undefined, user.token)).status, 200);
    assert.equal((await http(`${b.url}/admin/users/${user.id}`, 'DELETE', undefined, admin.token)).status, 200);
    const [onA, onB] = await refusedAfter(user.token, Date.now());
    assert.ok(onA < 1000 && onB < 1000, `refused after ${onA} ms on A and ${onB} ms on B`);
  });
});
