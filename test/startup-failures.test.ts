import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { freePort, startServer } from './helpers/server-process.ts';
import { POSTGRES_URL } from './helpers/production.ts';

// Well-formed values that point at something unusable: the real server process stops with exit
// code 1 and exactly one line on stderr that names the variable and says what to check, never a
// stack trace.

const dir = mkdtempSync(join(tmpdir(), 'startup-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const JWT_SECRET = 'a-test-secret-that-is-at-least-32-bytes-long';
let files = 0;
const sqlite = () => `sqlite:${join(dir, `db-${++files}.sqlite`)}`;

async function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['src/server.ts'], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: sqlite(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number | null, stderr };
}

function assertOneLine({ code, stderr }: { code: number | null; stderr: string }, variable: string, hint: RegExp): void {
  assert.equal(code, 1, stderr);
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, not:\n${stderr}`);
  assert.match(lines[0], new RegExp(`^Cannot start: ${variable}=`));
  assert.match(lines[0], hint);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

async function postgresMissing(): Promise<string | false> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return false;
  } catch {
    return `PostgreSQL is not reachable at ${POSTGRES_URL}`;
  }
}

const noPostgres = await postgresMissing();

describe('start-up with a dependency that cannot be used', () => {
  test('a PostgreSQL database that does not exist: DATABASE_URL, and how to create it', { skip: noPostgres }, async () => {
    const url = new URL(POSTGRES_URL);
    url.pathname = '/no_such_database_here';
    assertOneLine(await failedStart({ DATABASE_URL: url.toString(), JWT_SECRET }), 'DATABASE_URL', /database "no_such_database_here" does not exist; create it/);
  });

  test('PostgreSQL refusing connections: DATABASE_URL, and whether it runs there', async () => {
    const result = await failedStart({ DATABASE_URL: `postgres://postgres:a-password@127.0.0.1:${await freePort()}/rides`, JWT_SECRET });
    assertOneLine(result, 'DATABASE_URL', /refused the connection \(ECONNREFUSED\); is it running/);
    assert.doesNotMatch(result.stderr, /a-password/, 'no password in the message');
  });

  test('Redis unreachable: REDIS_URL, not an uncaught MaxRetriesPerRequestError', async () => {
    const result = await failedStart({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    assertOneLine(result, 'REDIS_URL', /Redis refused the connection \(ECONNREFUSED\)/);
    assert.doesNotMatch(result.stderr, /MaxRetriesPerRequest/);
  });

  test('a port another process listens on: PORT, EADDRINUSE', async () => {
    const other = createServer().listen(0, '127.0.0.1');
    await once(other, 'listening');
    try {
      const { port } = other.address() as { port: number };
      assertOneLine(await failedStart({ PORT: String(port) }), 'PORT', /already in use \(EADDRINUSE\)/);
    } finally {
      other.close();
    }
  });

  test('a HOST that is no address of this machine: HOST, ENOTFOUND', async () => {
    assertOneLine(await failedStart({ HOST: 'no-such-host.invalid' }), 'HOST', /does not resolve|not one of this machine/);
  });

  test('a second service on the same SQLite file refuses to start; the file is free again once the first stops', async () => {
    const DATABASE_URL = sqlite();
    const first = await startServer({ DATABASE_URL });
    try {
      assertOneLine(await failedStart({ DATABASE_URL }), 'DATABASE_URL', /another service is running on this database file/);
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    // Killed, not shut down: the operating system released the lock with the process.
    const again = await startServer({ DATABASE_URL });
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });
});
