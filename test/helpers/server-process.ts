import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

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
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
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
