import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, smtpSink } from './helpers/app.ts';
import { uniqueEmail } from './helpers/factories.ts';
import { http, serverEnv, startServer } from './helpers/server-process.ts';
import type { SmtpSink } from './helpers/smtp-sink.ts';

describe('the server process', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let smtp: SmtpSink;
  let env: Record<string, string | undefined>;
  before(async () => {
    database = await freshDatabase();
    smtp = await smtpSink();
    env = serverEnv(database.url, smtp.url);
  });
  after(() => database.drop());

  test('SIGTERM shuts down gracefully with exit code 0', async () => {
    const server = await startServer(env);
    assert.equal((await http(`${server.url}/health`)).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output());
  });

  test('SIGTERM drains: /health and /ready fail at once, requests are still served for the delay, then the process exits 0', async () => {
    const server = await startServer({ ...env, SHUTDOWN_DELAY_SECONDS: '2' });
    assert.equal((await http(`${server.url}/ready`)).status, 200);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const drainingLogged = () => server.output().includes('draining');
    for (let waited = 0; !drainingLogged() && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const path of ['/health', '/ready']) {
      const reply = await http(`${server.url}${path}`);
      assert.equal(reply.status, 503, `${path}: balancers and orchestrators stop sending at once`);
      assert.deepEqual(reply.body, { status: 'draining' });
    }
    let served = 0;
    while (Date.now() - signalled < 1_500) {
      assert.equal((await http(`${server.url}/openapi.json`)).status, 200, 'requests are answered until the delay ends');
      served += 1;
    }
    assert.ok(served > 0);
    assert.equal(await server.exited, 0, server.output());
    assert.ok(Date.now() - signalled >= 2_000, 'the process waited for the delay before it stopped');
  });

  test('an acknowledged signup survives kill -9, and tokens stay valid after restart', async () => {
    const first = await startServer(env);
    const email = uniqueEmail();
    const mailsBefore = smtp.mails.length;
    assert.equal((await http(`${first.url}/auth/signup/request-otp`, 'POST', { name: 'Kim', email })).status, 200);
    const otp = await smtp.otpFor(email, mailsBefore);
    const signup = await http(`${first.url}/auth/signup`, 'POST', { name: 'Kim', email, password: 'password-123', otp });
    assert.equal(signup.status, 200);
    const login = await http(`${first.url}/auth/login`, 'POST', { email, password: 'password-123' });
    assert.equal(login.status, 200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServer(env);
    try {
      assert.equal((await http(`${second.url}/user-settings`, 'GET', undefined, login.body.accessToken)).status, 200, 'old access token');
      assert.equal((await http(`${second.url}/auth/refresh`, 'POST', { refreshToken: login.body.refreshToken })).status, 200);
      assert.equal((await http(`${second.url}/auth/login`, 'POST', { email, password: 'password-123' })).status, 200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  test('start-up logs one line saying version, database, state, mail, payments and URLs, without passwords', async () => {
    // A password in every URL (PostgreSQL's trust auth and the unused SMTP server never check it).
    const databaseUrl = env.DATABASE_URL!.startsWith('postgres') ? env.DATABASE_URL!.replace('postgres@', 'postgres:pg-secret-pw@') : env.DATABASE_URL!;
    const server = await startServer({ ...env, DATABASE_URL: databaseUrl, SMTP_URL: 'smtp://mailer:smtp-secret-pw@127.0.0.1:2' });
    try {
      const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
      // The line follows "Server listening", which is what startServer waits for.
      const startupLine = () =>
        server
          .output()
          .split('\n')
          .flatMap((text) => {
            try {
              return [JSON.parse(text)];
            } catch {
              return []; // not a log line, or one still being written
            }
          })
          .find((entry) => entry.startup);
      for (let waited = 0; !startupLine() && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const line = startupLine();
      assert.ok(line, server.output());
      assert.equal(line.startup.version, version);
      assert.match(line.startup.database, env.DATABASE_URL!.startsWith('postgres') ? /^PostgreSQL postgres:\/\/127\.0\.0\.1:5432\/test$/ : /^SQLite \/.+\.db$/);
      assert.equal(line.startup.mail, 'SMTP smtp://127.0.0.1:2');
      assert.match(line.startup.payments, /not configured/);
      assert.equal(line.startup.urls.api, server.url);
      assert.equal(line.startup.urls.docs, `${server.url}/docs`);
      assert.equal((await fetch(line.startup.urls.docs)).status, 200, 'the docs URL it prints answers');
      for (const secret of ['pg-secret-pw', 'smtp-secret-pw', 'mailer']) assert.ok(!server.output().includes(secret), `output shows ${secret}`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('a bad configuration stops the process with a clear message', async () => {
    const child = await startServer({ ...env, PORT: 'eighty' }).catch((error: Error) => error);
    assert.ok(child instanceof Error);
    assert.match(child.message, /PORT/);
  });
});
