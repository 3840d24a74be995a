import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DispatchMode } from '../src/contract/types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'src/server.ts');
const CREATE_ADMIN = join(ROOT, 'scripts/create-admin.ts');
const DEV_PROVIDER = join(ROOT, 'scripts/dev-provider.ts');
/** The V8 flags `npm start` runs the service with (README "Running in production"). */
const SERVICE_NODE_FLAGS = ['--min-semi-space-size=32', '--max-semi-space-size=32'];
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** The service's dispatch timers by default (decisions.md): in wall-clock time. */
const DISPATCH_DEFAULTS = { batchMs: 2000, offerTtlSeconds: 15, maxSeconds: 120 };

export interface EmbeddedService {
  url: string;
  /** The operator account made with create-admin on the fresh database. */
  admin: { email: string; password: string };
  /** The payment provider stand-in the service is configured with. */
  providerUrl: string;
  /** The environment it runs with, for the run's header (no secrets in it). */
  description: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * The service's dispatch timers scaled to simulated time: at 20× a two-second round would last 40
 * simulated seconds, and offers would wait five simulated minutes. Scaled, the simulated city sees
 * the defaults (within the variables' minimums: 50 ms, 1 s).
 */
export function scaledDispatch(speed: number): Record<'DISPATCH_BATCH_MS' | 'DISPATCH_OFFER_TTL_SECONDS' | 'DISPATCH_MAX_SECONDS', string> {
  return {
    DISPATCH_BATCH_MS: String(Math.max(50, Math.round(DISPATCH_DEFAULTS.batchMs / speed))),
    DISPATCH_OFFER_TTL_SECONDS: String(Math.max(1, Math.round(DISPATCH_DEFAULTS.offerTtlSeconds / speed))),
    DISPATCH_MAX_SECONDS: String(Math.max(1, Math.round(DISPATCH_DEFAULTS.maxSeconds / speed))),
  };
}

/** Rides booked ahead by default (decisions.md): how soon ahead at the earliest, and how long before their time dispatch starts. */
const SCHEDULE_DEFAULTS = { minLeadMinutes: 30, dispatchLeadMinutes: 20 };

/**
 * The service's booking-ahead leads scaled to simulated time, like its dispatch timers: at 20× the
 * simulated city books 20 minutes ahead at the earliest and is looked for a driver 20 minutes before
 * (whole wall-clock minutes, the variables' unit, rounded down for the first so the city's leads are
 * never refused; the dispatch lead is at least one).
 */
export function scaledSchedule(speed: number): Record<'SCHEDULE_MIN_LEAD_MINUTES' | 'SCHEDULE_DISPATCH_LEAD_MINUTES', string> {
  return {
    SCHEDULE_MIN_LEAD_MINUTES: String(Math.floor(SCHEDULE_DEFAULTS.minLeadMinutes / speed)),
    SCHEDULE_DISPATCH_LEAD_MINUTES: String(Math.max(1, Math.round(SCHEDULE_DEFAULTS.dispatchLeadMinutes / speed))),
  };
}

/**
 * `node src/server.ts` in a process of its own, on a new SQLite database in a temporary folder
 * and a free port, with an operator account made first by scripts/create-admin.ts, and the
 * payment provider stand-in (`npm run dev:provider`) in a process beside it. Nothing of the
 * caller's environment reaches the service (no DATABASE_URL, REDIS_URL or provider keys): it is
 * the embedded mode a newcomer gets from `npm start`. Rate limits are off, since the whole
 * simulated city calls from one address. `env` adds settings of the caller's choosing (the Lighthouse
 * run's local map tiles). `stop()` ends both and deletes the folder.
 */
export async function startEmbedded(options: { dispatchMode: DispatchMode; speed: number; env?: Record<string, string> }): Promise<EmbeddedService> {
  const folder = mkdtempSync(join(tmpdir(), 'ride-hailing-simulator-'));
  const logFile = join(folder, 'service.log');
  const log = openSync(logFile, 'a');
  const children: ChildProcess[] = [];
  // The children run in process groups of their own, so a Ctrl-C in the terminal reaches only the
  // simulator, which then ends the run cleanly while the service still answers. Should the
  // simulator exit without stop() (a second Ctrl-C), they are killed with it.
  const orphaned = () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', orphaned);
  const stop = async () => {
    process.off('exit', orphaned);
    await Promise.all(children.map(end));
    closeSync(log);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const [port, providerPort] = [await freePort(), await freePort()];
    const url = `http://127.0.0.1:${port}`;
    const provider = {
      RAZORPAY_KEY_ID: 'rzp_test_simulator',
      RAZORPAY_KEY_SECRET: randomBytes(18).toString('base64url'),
      RAZORPAY_WEBHOOK_SECRET: randomBytes(18).toString('base64url'),
    };
    const providerUrl = `http://127.0.0.1:${providerPort}`;
    const standIn = spawn(process.execPath, [DEV_PROVIDER, '--port', String(providerPort), '--webhook-url', `${url}/payments/webhook`], {
      env: { PATH: process.env.PATH ?? '', ...provider },
      stdio: ['ignore', 'pipe', log],
      detached: true,
    });
    children.push(standIn);
    await untilListening(standIn, providerUrl);

    const dispatch = { DISPATCH_MODE: options.dispatchMode, ...scaledDispatch(options.speed) };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: `sqlite:${join(folder, 'ride-hailing.db')}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      // No balancer in front to wait for: the run ends without the drain's pause.
      SHUTDOWN_DELAY_SECONDS: '0',
      RAZORPAY_API_URL: providerUrl,
      // The demo's rider app pays through the stand-in's checkout, not Razorpay's.
      RAZORPAY_CHECKOUT_URL: `${providerUrl}/v1/checkout.js`,
      // The console's last hour and its waits in the simulated city's time, as the run reports them.
      SIMULATION_SPEED: String(options.speed),
      ...provider,
      ...dispatch,
      ...scaledSchedule(options.speed),
      ...options.env,
    };
    const admin = { email: 'operator@simulator.invalid', password: randomBytes(12).toString('base64url') };
    const made = spawn(process.execPath, [CREATE_ADMIN, '--email', admin.email, '--name', 'Simulator operator'], { env: { ...env, ADMIN_PASSWORD: admin.password }, stdio: ['ignore', log, log] });
    const [code] = (await once(made, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`create-admin failed:\n${tail(logFile)}`);
    const service = spawn(process.execPath, [...SERVICE_NODE_FLAGS, SERVER], { env, stdio: ['ignore', log, log], detached: true });
    children.push(service);
    await untilHealthy(url, service, logFile);
    return {
      url,
      admin,
      providerUrl,
      description: `embedded (SQLite), ${Object.entries(dispatch).map(([key, value]) => `${key}=${value}`).join(' ')}`,
      logFile,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGTERM (a graceful stop), SIGKILL if it does not end in time. */
async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(killer);
}

/** The stand-in prints its address once it listens. */
function untilListening(child: ChildProcess, url: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', hear);
      child.off('exit', exited);
      // Its later output is not needed, but must not fill the pipe.
      child.stdout!.resume();
      if (error) reject(error);
      else resolve();
    };
    const hear = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(url)) done();
    };
    const exited = () => done(new Error(`the payment provider stand-in stopped while starting:\n${output}`));
    const timer = setTimeout(() => done(new Error(`the payment provider stand-in did not start:\n${output}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', hear);
    child.once('exit', exited);
  });
}

async function untilHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service stopped while starting:\n${tail(logFile)}`);
    const healthy = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    if (Date.now() > deadline) throw new Error(`the service did not answer /health within ${START_TIMEOUT_MS / 1000} s:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port nobody listens on now (the service takes it a moment later). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
}
