import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import type { Role } from '../../src/platform/auth/roles.ts';
import { freshDatabase, smtpSink } from './app.ts';
import { uniqueEmail } from './factories.ts';
import { POSTGRES_URL, REDIS_URL } from './production.ts';
import type { SmtpSink } from './smtp-sink.ts';

/** A port nothing listens on right now (a process started a moment later takes it). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** The environment of a server process on a test database, mailing to the test SMTP sink. */
export function serverEnv(databaseUrl: string, smtpUrl: string): Record<string, string | undefined> {
  return {
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtpUrl,
    REDIS_URL: process.env.REDIS_URL,
    // PostgreSQL needs a shared secret; the embedded mode generates one beside the database.
    JWT_SECRET: databaseUrl.startsWith('postgres') ? 'a-test-secret-that-is-at-least-32-bytes-long' : undefined,
  };
}

/** Starts `node src/server.ts` with the given environment on a free port and waits until it listens. */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['src/server.ts'], {
    // No drain delay unless a test asks for one: stopping a test server need not wait for balancers.
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DELAY_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  // Generous: on a loaded machine (CI beside other jobs) a cold start with migrations can take many seconds.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) return { child, url: match[1], output: () => output, exited };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function http(url: string, method = 'GET', body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export interface Instances {
  servers: ServerProcess[];
  smtp: SmtpSink;
  /** The environment every instance was started with. */
  env: Record<string, string>;
  /** Stops the instances still running (a test may have killed some) one by one, then drops the database. */
  stop(): Promise<void>;
}

/**
 * `count` instances of the service on one fresh PostgreSQL schema and one Redis, as behind a load
 * balancer: one JWT secret, mail to the test SMTP sink, rate limits and the OTP cooldown off unless
 * `extraEnv` sets them. Their Redis keys carry a prefix nobody else uses, unless `extraEnv` names a
 * Redis (a private database) or a prefix of its own.
 */
export async function startInstances(count: number, extraEnv: Record<string, string> = {}): Promise<Instances> {
  const database = await freshDatabase(POSTGRES_URL);
  const smtp = await smtpSink();
  const ownRedis = 'REDIS_URL' in extraEnv || 'REDIS_KEY_PREFIX' in extraEnv;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL,
    ...(ownRedis ? {} : { REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:` }),
    JWT_SECRET: 'a-shared-secret-of-at-least-thirty-two-bytes',
    SMTP_URL: smtp.url,
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    OTP_RESEND_COOLDOWN_SECONDS: '0',
    ...extraEnv,
  };
  // All at once: the migration lock lets exactly one of them migrate.
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
    await database.drop();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { servers, smtp, env, stop };
}

export interface HttpAccount {
  id: number;
  email: string;
  password: string;
  token: string;
}

/**
 * Signs an account up over HTTP (its code read from the sink) and logs it in. Given several
 * instances, the steps go round them: the code is asked of the first, used on the second, and the
 * login made on the next, as a client behind a load balancer lands anywhere.
 */
export async function signUpOn(smtp: SmtpSink, on: ServerProcess | readonly ServerProcess[], role: Role, email = uniqueEmail(role.toLowerCase())): Promise<HttpAccount> {
  const servers = 'url' in on ? [on] : on;
  const url = (step: number) => servers[step % servers.length].url;
  const password = 'password-123';
  const mailsBefore = smtp.mails.length;
  assert.equal((await http(`${url(0)}/auth/signup/request-otp`, 'POST', { name: role, email })).status, 200);
  const otp = await smtp.otpFor(email, mailsBefore);
  assert.equal((await http(`${url(1)}/auth/signup`, 'POST', { name: role, email, password, otp, role })).status, 200);
  const login = await http(`${url(2)}/auth/login`, 'POST', { email, password, role });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return { id: login.body.id, email, password, token: login.body.accessToken };
}
