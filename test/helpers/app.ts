import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import type { AppOptions } from '../../src/app-options.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { connectDatabase, type DatabaseConnection } from '../../src/db/connect.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { SmtpSink } from './smtp-sink.ts';

/** A clock tests can move forward. */
export class TestClock implements Clock {
  #now = Date.now();
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

let sink: Promise<SmtpSink> | undefined;
/** One local SMTP server per test process; every test app mails to it. */
export const smtpSink = (): Promise<SmtpSink> => (sink ??= new SmtpSink().start());

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  smtp: SmtpSink;
  /** Closes the app and builds a new one on the same database, as a process restart would. */
  restart(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh database: a temporary SQLite file, or a new PostgreSQL schema when
 * DATABASE_URL is set. Rate limits and the OTP cooldown are off unless the test turns them on.
 */
export async function createTestApp(overrides: Partial<Config> = {}, options: AppOptions = {}): Promise<TestApp> {
  const smtp = await smtpSink();
  const clock = new TestClock();
  const database = await freshDatabase();
  const config: Config = {
    ...loadConfig({
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL,
      JWT_SECRET: randomBytes(32).toString('hex'),
      SMTP_URL: smtp.url,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      OTP_RESEND_COOLDOWN_SECONDS: '0',
      LOG_LEVEL: 'silent',
    }),
    // Apps share one Redis but not one database, so each gets its own keys.
    redisKeyPrefix: `test:${randomBytes(6).toString('hex')}:`,
    // Many tests book several rides for one rider; the limit's own tests set it back.
    maxOpenRidesPerRider: 100,
    // The test clock stands still, so a driver's reports all fall in one second; the limit's own tests set it.
    driverPositionsPerSecond: 0,
    ...overrides,
  };
  let app = await buildApp(config, { clock, ...options });
  return {
    get app() {
      return app;
    },
    config,
    clock,
    smtp,
    async restart() {
      await app.close();
      app = await buildApp(config, { clock, ...options });
      return app;
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

export async function freshDatabase(postgresUrl = process.env.DATABASE_URL): Promise<{ url: string; drop(): Promise<void> }> {
  if (postgresUrl?.startsWith('postgres')) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      url: url.toString(),
      async drop() {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ride-hailing-test-'));
  return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh database, migrated, with a connection to it; `close` ends the connection and drops the database. */
export async function migratedDatabase(): Promise<{ connection: DatabaseConnection; close(): Promise<void> }> {
  const database = await freshDatabase();
  const connection = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
  await connection.migrate();
  return {
    connection,
    async close() {
      await connection.destroy();
      await database.drop();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** One HTTP call through app.inject, with an optional bearer token and JSON body. */
export async function call<T = any>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await app.inject({ method, url, headers, ...(options.body === undefined ? {} : { payload: options.body as object }) });
  const text = response.body;
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
