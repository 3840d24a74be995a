// The CPU cost of one driver location update (POST /rides/location/{id}), counted in a way that does
// not depend on how busy the machine is: node bench/location-cost.ts [options]
//
//   --mode=embedded|production   production needs DATABASE_URL (postgres) and REDIS_URL
//   --repo=<worktree>            the code to measure (default: this one), so two commits compare in one session
//   --updates=6000 --rounds=5    updates per measured window, windows (CPU milliseconds, best and median)
//   --callgrind                  one window under valgrind: see the command below
//
// The service is built in this process (the bench's fixtures: accepted rides, their drivers' tokens)
// and fed over real HTTP by a client in a child process, 50 requests in flight as autocannon sends
// them. Time is virtual: the service's clock and every timer of 100 ms or more follow the number of
// requests received (--rate a second), so the 5 s ride snapshots and the once-a-second presence
// writes cost per update what they cost at that rate, natively or 50 times slower under valgrind.
// 100 rides at 1,000/s is the bench's 1,000 rides at 10,000/s per ride (10 updates a ride a second),
// but timers that run once a second regardless (polls, rounds) weigh ten times more per update here.
//
// Instructions per update, the figure that settles a comparison on a shared machine:
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/loc.%p \
//     node --expose-gc bench/location-cost.ts --callgrind [--repo=…] [--mode=…]
//   then divide `totals:` of the dump by --updates. JIT compilation and concurrent GC run on helper
//   threads and land in a window by chance: `callgrind_annotate --inclusive=yes` gives the main
//   thread as the total less node's PlatformWorkerThread, and its GC as Heap::CollectGarbage.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const option = (name: string, fallback: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const repo = option('repo', new URL('..', import.meta.url).pathname);
const mode = option('mode', 'embedded');
const updates = Number(option('updates', '6000'));
const rounds = Number(option('rounds', '5'));
const rideCount = Number(option('rides', '100'));
const rate = Number(option('rate', '1000'));
const callgrind = process.argv.includes('--callgrind');

// Virtual time: timers of 100 ms or more wait for requests, not for the wall clock.
const started = Date.now();
let received = 0;
const now = () => started + Math.floor((received * 1000) / rate);
interface VirtualTimer { id: number; at: number; every: number | null; run: () => void }
const timers = new Map<number, VirtualTimer>();
let nextTimer = 1;
const real = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, clearTimeout: globalThis.clearTimeout };
function virtual(run: (...args: any[]) => void, delay: number, args: unknown[], repeat: boolean): object {
  const timer: VirtualTimer = { id: nextTimer++, at: now() + delay, every: repeat ? delay : null, run: () => run(...args) };
  timers.set(timer.id, timer);
  return {
    virtualTimer: timer.id,
    unref() { return this; },
    ref() { return this; },
    hasRef: () => false,
    refresh() { timer.at = now() + delay; return this; },
    [Symbol.toPrimitive]: () => timer.id,
  };
}
const patched = globalThis as any;
patched.setTimeout = (run: any, delay = 0, ...args: unknown[]) => (delay >= 100 ? virtual(run, delay, args, false) : real.setTimeout(run, delay, ...args));
patched.setInterval = (run: any, delay = 0, ...args: unknown[]) => (delay >= 100 ? virtual(run, delay, args, true) : real.setInterval(run, delay, ...args));
patched.clearTimeout = patched.clearInterval = (handle: any) => (handle && typeof handle === 'object' && 'virtualTimer' in handle ? timers.delete(handle.virtualTimer) : real.clearTimeout(handle));
function fireDue(): void {
  const due = [...timers.values()].filter((timer) => timer.at <= now()).sort((a, b) => a.at - b.at || a.id - b.id);
  for (const timer of due) {
    if (timer.every === null) timers.delete(timer.id);
    else timer.at += timer.every;
    timer.run();
  }
}

const env: Record<string, string | undefined> = {
  RATE_LIMIT_PER_MINUTE: '0', AUTH_RATE_LIMIT_PER_MINUTE: '0', DRIVER_POSITIONS_PER_SECOND: '1000', LOG_LEVEL: 'warn', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex'),
};
const scratch = mkdtempSync(join(tmpdir(), 'location-cost-'));
let schema: string | undefined;
const { default: pg } = await import(join(repo, 'node_modules/pg/lib/index.js'));
const postgres = async (text: string) => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(text);
  await client.end();
};
if (mode === 'production') {
  schema = `location_cost_${process.pid}`;
  await postgres(`create schema ${schema}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  env.DATABASE_URL = url.toString();
  // Pub/sub channels are global to the server: a prefix of its own keeps other runs' position changes
  // off this copy, and names the keys deleted at the end (nothing else on this Redis is touched).
  env.REDIS_KEY_PREFIX = `location-cost-${process.pid}:`;
} else {
  env.DATABASE_URL = `sqlite:${join(scratch, 'service.db')}`;
  env.REDIS_URL = undefined;
}

const { loadConfig } = await import(join(repo, 'src/config.ts'));
const { loadFixtures } = await import(join(repo, 'bench/lib/fixtures.ts'));
const { buildApp } = await import(join(repo, 'src/app.ts'));
const config = loadConfig({ ...process.env, ...env });
const fixtures = await loadFixtures(config, { riders: 5 * rideCount, drivers: rideCount, acceptedRides: rideCount });
const app = await buildApp(config, { clock: { now } });
app.server.on('request', () => {
  received++;
  if (received % 50 === 0) fireDue();
});
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
// About a kilometre from the pickup, as the bench reports: updates, not arrival notices.
const requestsFile = join(scratch, 'requests.json');
writeFileSync(requestsFile, JSON.stringify(fixtures.rides.map((ride: any) => ({ path: `/rides/location/${ride.id}`, token: ride.driverToken, body: JSON.stringify({ lat: ride.pickup.lat + 0.009, lon: ride.pickup.lon }) }))));

function send(count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = spawn(process.env.CLIENT_NODE ?? process.execPath, [new URL('./lib/location-cost-client.ts', import.meta.url).pathname, String(port), String(count), requestsFile], { stdio: 'inherit' });
    client.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the client exited with ${code}`))));
  });
}

// Warm-up: TurboFan has compiled the path and every cache is filled before anything is counted.
await send(callgrind ? 24_000 : 20_000);
if (callgrind) {
  // A full collection first, so that a major GC the warm-up left due does not land in one version's window only.
  (globalThis as any).gc?.();
  execFileSync('callgrind_control', ['--zero', String(process.pid)]);
  execFileSync('callgrind_control', ['--instr=on', String(process.pid)]);
  await send(updates);
  execFileSync('callgrind_control', ['--instr=off', String(process.pid)]);
  execFileSync('callgrind_control', ['--dump=location-updates', String(process.pid)]);
  console.log(`${updates} updates counted (${mode}, ${repo}): divide the dump's totals by ${updates}`);
} else {
  const costs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    await send(updates);
    const spent = process.cpuUsage(before);
    costs.push((spent.user + spent.system) / 1000 / updates);
  }
  const sorted = [...costs].sort((a, b) => a - b);
  console.log(`${mode} (${repo}): service CPU ms per update best ${sorted[0].toFixed(4)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(4)} (${costs.map((cost) => cost.toFixed(4)).join(' ')})`);
}
await app.close();
rmSync(scratch, { recursive: true, force: true });
if (schema) await postgres(`drop schema ${schema} cascade`);
if (env.REDIS_KEY_PREFIX) {
  const { Redis } = await import(join(repo, 'node_modules/ioredis/built/index.js'));
  const redis = new Redis(process.env.REDIS_URL!);
  for await (const keys of redis.scanStream({ match: `${env.REDIS_KEY_PREFIX}*`, count: 1000 })) if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
process.exit(0);
