// The realtime channel (issue 14), two figures, each beside a bare `ws` server doing the least a
// channel can do (bench/lib/ws-relay.ts):
// 1. memory: authenticated idle WebSockets held by one instance, RSS growth of the service;
// 2. fan-out: every active ride's driver reports positions over the socket at a steady rate, and the
//    time until the position reaches the rider's socket; on one instance, and in production mode
//    across two instances (drivers on one, riders on the other, through Redis).
// Clients run in a process of their own on the load core (bench/lib/realtime-load.ts).
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { log, quick, type Mode, type Row, type Scenario } from '../lib/context.ts';
import { loadFixtures, type Fixtures } from '../lib/fixtures.ts';
import { PINNING, pidOf, rssMb, SERVICE_NODE_FLAGS, spawnNode, startServer, type RunningServer } from '../lib/processes.ts';
import type { FanoutResult, FanoutSpec, IdleSpec } from '../lib/realtime-load.ts';
import { round } from '../lib/stats.ts';

const SETTINGS = quick
  ? { sockets: 1_000, rides: 200, rate: 2, warmupSeconds: 2, windows: 1, seconds: 5 }
  : { sockets: 10_000, rides: 1_000, rate: 2, warmupSeconds: 5, windows: 3, seconds: 10 };
const RSS_TARGET_MB = 400;
const ONE_INSTANCE_P99_MS = 50;
const TWO_INSTANCES_P99_MS = 100;
/** Time for a process to settle (lazy allocations, a GC) before its memory is read. */
const SETTLE_MS = 3_000;

const service = (env: Record<string, string | undefined>) => startServer(new URL('../service.ts', import.meta.url).pathname, [], env, { flags: SERVICE_NODE_FLAGS });
const relay = () => startServer(new URL('../lib/ws-relay.ts', import.meta.url).pathname, [], {});
const wsUrl = (server: RunningServer) => `${server.url.replace('http://', 'ws://')}/realtime`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const realtimeScenario: Scenario = async (mode, env) => {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-realtime-'));
  try {
    const fixtures = await loadFixtures(loadConfig({ ...process.env, ...env }), {
      riders: Math.max(SETTINGS.sockets, SETTINGS.rides),
      drivers: SETTINGS.rides,
      acceptedRides: SETTINGS.rides,
    });
    return [await connectionsRow(mode, env, fixtures, scratch), ...(await fanoutRows(mode, env, fixtures, scratch))];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

async function connectionsRow(mode: Mode, env: Record<string, string | undefined>, fixtures: Fixtures, scratch: string): Promise<Row> {
  const count = SETTINGS.sockets;
  const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
  if (limit < count + 1_000) log(`realtime: the file descriptor limit (${limit}) is below ${count + 1_000}; raise it (ulimit -n) for ${count} sockets`);
  const riders = fixtures.riders.slice(0, count);
  log(`realtime: ${count.toLocaleString('en')} idle authenticated sockets`);
  const base = await relay();
  const baseGrowth = await idleGrowth(base, { kind: 'idle', url: wsUrl(base), tokens: riders.map((r) => String(r.id)) }, scratch).finally(() => base.stop());
  const server = await service(env);
  const growth = await idleGrowth(server, { kind: 'idle', url: wsUrl(server), tokens: riders.map((r) => r.token) }, scratch).finally(() => server.stop());
  const perSocketKb = Math.round((growth.mb * 1024) / count);
  return {
    scenario: `${count.toLocaleString('en')} authenticated idle WebSockets on one instance`,
    mode: mode.name,
    errors: count - growth.ready,
    value: `RSS +${growth.mb} MB (${perSocketKb} kB per socket), ${growth.ready.toLocaleString('en')} ready`,
    baseline: 'bare ws server, RSS growth MB',
    baselineValue: baseGrowth.mb,
    ratio: baseGrowth.mb > 0 ? round(growth.mb / baseGrowth.mb) : undefined,
    target: `RSS growth < ${RSS_TARGET_MB} MB, all ready`,
    met: growth.mb < RSS_TARGET_MB && growth.ready === count,
  };
}

/** RSS of `server` before and after the load process holds every socket of `spec` open. */
async function idleGrowth(server: RunningServer, spec: IdleSpec, scratch: string): Promise<{ mb: number; ready: number }> {
  await sleep(SETTLE_MS);
  const before = rssMb(pidOf(server));
  const file = join(scratch, 'idle.json');
  writeFileSync(file, JSON.stringify(spec));
  const child = spawnNode(new URL('../lib/realtime-load.ts', import.meta.url).pathname, [file], {}, PINNING?.load);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    while (!output.includes('"ready"')) {
      if (child.exitCode !== null) throw new Error(`realtime load failed:\n${output.slice(-2000)}`);
      await sleep(100);
    }
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as { ready: number; failed: number; errors: string[] };
    if (result.failed) log(`realtime: ${result.failed} sockets failed, e.g. ${result.errors.join(' | ')}`);
    await sleep(SETTLE_MS);
    return { mb: round(rssMb(pidOf(server)) - before, 1), ready: result.ready };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function fanoutRows(mode: Mode, env: Record<string, string | undefined>, fixtures: Fixtures, scratch: string): Promise<Row[]> {
  const rides = fixtures.rides.map((ride, i) => ({ ...ride, riderId: fixtures.riders[i].id, riderToken: fixtures.riders[i].token }));
  const total = SETTINGS.rides * SETTINGS.rate;
  const label = `${SETTINGS.rides.toLocaleString('en')} rides × ${SETTINGS.rate} positions/s over the socket → rider`;
  const common = { rate: SETTINGS.rate, warmupSeconds: SETTINGS.warmupSeconds, windows: SETTINGS.windows, seconds: SETTINGS.seconds };

  log(`realtime: fan-out baseline, ${total.toLocaleString('en')} positions/s through a bare ws relay`);
  const base = await relay();
  // The relay takes a user id for a token; drivers get negative ones, apart from the riders'.
  const relayRides = rides.map((ride) => ({ ...ride, riderToken: String(ride.riderId), driverToken: String(-ride.id) }));
  const baseline = await runFanout({ kind: 'fanout', riderUrl: wsUrl(base), driverUrl: wsUrl(base), rides: relayRides, relay: true, ...common }, scratch).finally(() => base.stop());

  log(`realtime: fan-out on one instance, ${total.toLocaleString('en')} positions/s`);
  const one = await service(env);
  const single = await runFanout({ kind: 'fanout', riderUrl: wsUrl(one), driverUrl: wsUrl(one), rides, ...common }, scratch).finally(() => one.stop());
  const rows = [fanoutRow(`${label}, one instance`, mode, single, baseline, ONE_INSTANCE_P99_MS)];

  if (mode.name === 'production') {
    log(`realtime: fan-out across two instances through Redis, ${total.toLocaleString('en')} positions/s`);
    const [a, b] = await Promise.all([service(env), service(env)]);
    const across = await runFanout({ kind: 'fanout', riderUrl: wsUrl(b), driverUrl: wsUrl(a), rides, ...common }, scratch).finally(() => Promise.all([a.stop(), b.stop()]));
    rows.push(fanoutRow(`${label}, drivers on one instance and riders on another`, mode, across, baseline, TWO_INSTANCES_P99_MS));
  }
  return rows;
}

async function runFanout(spec: FanoutSpec, scratch: string): Promise<FanoutResult> {
  const file = join(scratch, 'fanout.json');
  writeFileSync(file, JSON.stringify(spec));
  const child = spawnNode(new URL('../lib/realtime-load.ts', import.meta.url).pathname, [file], {}, PINNING?.load);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const line = output.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`realtime fan-out load failed (${code}):\n${output.slice(-2000)}`);
  const result = JSON.parse(line) as FanoutResult;
  if (result.errors.length) log(`realtime: fan-out errors, e.g. ${result.errors.join(' | ')}`);
  return result;
}

function fanoutRow(scenario: string, mode: Mode, result: FanoutResult, baseline: FanoutResult, targetMs: number): Row {
  return {
    scenario,
    mode: mode.name,
    requestsPerSecond: result.reportsPerSecond,
    p50: result.p50,
    p99: result.p99,
    errors: result.lost + result.refused,
    value: `${result.received.toLocaleString('en')} of ${result.sent.toLocaleString('en')} delivered, ${result.lost} lost, ${result.refused} refused; p99 of each ${SETTINGS.seconds} s window ${result.windowP99s.join(' / ')} ms (the median shown), max ${result.max} ms`,
    baseline: 'bare ws relay p99 ms',
    baselineValue: baseline.p99,
    ratio: baseline.p99 > 0 ? round(result.p99 / baseline.p99) : undefined,
    target: `p99 < ${targetMs} ms, none lost or refused`,
    met: result.p99 < targetMs && result.lost === 0 && result.refused === 0 && result.received === result.sent,
  };
}
