// Dispatch (issue 15), three figures:
// 1. a batched round's decision over 2,000 open rides and 20,000 available drivers, on one core
//    (dispatch-round.ts: read the available drivers, search every ride's candidates, assign);
// 2. booking → `offer.created` on the driver's realtime socket, end to end against the running
//    service in batched mode (dispatch-latency.ts);
// 3. quality: one synthetic city day replayed through the dispatcher's decision in `nearest` and in
//    `batched` mode (dispatch-replay.ts; deterministic, in-process, the same in both modes of the
//    benchmark, so it runs with the embedded one only).
import { once } from 'node:events';
import { loadConfig } from '../../src/config.ts';
import { log, quick, type Mode, type Row, type Scenario } from '../lib/context.ts';
import { loadFixtures } from '../lib/fixtures.ts';
import { PINNING, SERVICE_NODE_FLAGS, spawnNode, startServer } from '../lib/processes.ts';
import { median, percentile, round } from '../lib/stats.ts';
import { measureOfferLatency } from './dispatch-latency.ts';
import { OFF_PEAK_HOURS, PEAK_HOURS, replayDay, summary } from './dispatch-replay.ts';

const SETTINGS = quick
  ? { rounds: 5, pairs: 20, latencySeconds: 15, replayDrivers: 500 }
  : { rounds: 30, pairs: 50, latencySeconds: 60, replayDrivers: 2_000 };
const BATCH_MS = 2_000;
const ROUND_TARGET_MS = 100;

export const dispatchScenario: Scenario = async (mode, env) => {
  const rows = [await roundRow(mode, env)];
  // The round's 20,000 drivers stay in Redis's available indexes; the service must not see them.
  await mode.resetRedis();
  rows.push(await latencyRow(mode, env));
  if (mode.name === 'embedded') rows.push(...(await qualityRows()));
  return rows;
};

async function roundRow(mode: Mode, env: Record<string, string | undefined>): Promise<Row> {
  log('dispatch: batched round over 2,000 open rides and 20,000 available drivers');
  const child = spawnNode(new URL('./dispatch-round.ts', import.meta.url).pathname, [`--rounds=${SETTINGS.rounds}`], env, PINNING?.service);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`dispatch round benchmark failed:\n${output.slice(-2000)}`);
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as { p50: number; p99: number; readP50: number; searchP50: number; routeP50: number; assignP50: number; matched: number };
  return {
    scenario: `batched round decision, 2,000 open rides × 20,000 available drivers (read ${result.readP50} + search ${result.searchP50} + route ${result.routeP50} + assign ${result.assignP50} ms; ${result.matched} matched)`,
    mode: mode.name,
    p50: result.p50,
    p99: result.p99,
    target: `p50 < ${ROUND_TARGET_MS} ms on one core`,
    met: result.p50 < ROUND_TARGET_MS,
  };
}

async function latencyRow(mode: Mode, env: Record<string, string | undefined>): Promise<Row> {
  log(`dispatch: booking → offer.created over the realtime channel, ${SETTINGS.pairs} rider/driver pairs for ${SETTINGS.latencySeconds} s`);
  const fixtures = await loadFixtures(loadConfig({ ...process.env, ...env }), { riders: SETTINGS.pairs, drivers: SETTINGS.pairs, acceptedRides: 0 });
  const service = await startServer(new URL('../service.ts', import.meta.url).pathname, [], { ...env, DISPATCH_MODE: 'batched', DISPATCH_BATCH_MS: String(BATCH_MS) }, { flags: SERVICE_NODE_FLAGS });
  try {
    const result = await measureOfferLatency(service.url, fixtures.riders, fixtures.drivers, SETTINGS.latencySeconds, BATCH_MS);
    if (result.errors) log(`dispatch latency errors, e.g. ${result.errorSamples.join(' | ')}`);
    const p99 = round(percentile(result.samples, 99), 0);
    return {
      scenario: `booking → offer.created at the driver's socket, batched (DISPATCH_BATCH_MS ${BATCH_MS}), ${result.samples.length} bookings`,
      mode: mode.name,
      p50: round(median(result.samples), 0),
      p99,
      errors: result.errors,
      target: `p99 < ${BATCH_MS + 200} ms (DISPATCH_BATCH_MS + 200)`,
      met: p99 < BATCH_MS + 200 && result.errors === 0,
    };
  } finally {
    await service.stop();
  }
}

async function qualityRows(): Promise<Row[]> {
  log(`dispatch: a synthetic city day with ${SETTINGS.replayDrivers.toLocaleString('en')} drivers, replayed in nearest and in batched mode`);
  const nearest = await replayDay('nearest', { drivers: SETTINGS.replayDrivers, seed: 1 });
  const batched = await replayDay('batched', { drivers: SETTINGS.replayDrivers, seed: 1 });
  const km = (value: number) => round(value, 2);
  const percent = (share: number) => `${round(share * 100, 1)} %`;
  const row = (label: string, hours: readonly number[], target: string, met: (ratio: number) => boolean): Row => {
    const greedy = summary(nearest, hours);
    const paired = summary(batched, hours);
    const ratio = round(paired.meanPickupKm / greedy.meanPickupKm);
    return {
      scenario:
        `city-day replay, ${label}: mean pickup ${km(paired.meanPickupKm)} km batched vs ${km(greedy.meanPickupKm)} km nearest; ` +
        `matched ${percent(paired.matchedShare)} vs ${percent(greedy.matchedShare)} (${greedy.requested.toLocaleString('en')} bookings)`,
      mode: 'in-process',
      baseline: 'nearest mode, mean pickup km',
      baselineValue: km(greedy.meanPickupKm),
      ratio,
      target,
      met: met(ratio),
    };
  };
  return [
    row(`peak hours (demand 3× capacity; ${SETTINGS.replayDrivers.toLocaleString('en')} drivers)`, PEAK_HOURS, 'batched ≤ 0.9 × nearest', (ratio) => ratio <= 0.9),
    row('off-peak hours (demand ≤ 1× capacity)', OFF_PEAK_HOURS, 'batched ≤ nearest', (ratio) => ratio <= 1),
  ];
}
