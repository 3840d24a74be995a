// npm run bench [-- --quick] [-- --only=location,status,estimate,booking,nearby,insights,soak,dispatch,eta,operator,realtime,routing,web,whatif]
//
// Starts the service itself, loads data with the bulk loader (lib/fixtures.ts) or through the
// API, drives load with autocannon on another core, and compares every number with a baseline
// measured in the same run. Prints one table and writes bench/results/latest.json (partial.json for --only=).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { queryPoints } from './lib/drivers.ts';
import { loadFixtures, type Fixtures } from './lib/fixtures.ts';
import { formatCpu } from './lib/cost.ts';
import { formatFailures, serviceWarnings } from './lib/failures.ts';
import { bearer, json, load, type LoadRequest } from './lib/load.ts';
import { startService, windowsSummary, type Measurement, type ServiceUnderTest } from './lib/measure.ts';
import { PINNING, pidOf, rssMb, spawnNode, startServer } from './lib/processes.ts';
import { log, partial, quick, SETTINGS, wanted, type Mode, type Row, type Scenario } from './lib/context.ts';
import { median, round, spread } from './lib/stats.ts';
import { dispatchScenario } from './scenarios/dispatch.ts';
import { etaScenario } from './scenarios/eta.ts';
import { operatorScenario } from './scenarios/operator.ts';
import { realtimeScenario } from './scenarios/realtime.ts';
import { routingScenario } from './scenarios/routing.ts';
import { webScenario } from './scenarios/web.ts';
import { whatIfScenario } from './scenarios/what-if.ts';

/** Scenarios in files of their own (bench/scenarios/), by the name `--only=` selects them with. */
const SCENARIOS: Record<string, Scenario> = {
  dispatch: dispatchScenario,
  eta: etaScenario,
  operator: operatorScenario,
  realtime: realtimeScenario,
  routing: routingScenario,
  web: webScenario,
  whatif: whatIfScenario,
};

const rows: Row[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'ride-bench-'));

const modes: Mode[] = [embeddedMode()];
const postgresUrl = process.env.DATABASE_URL;
if (postgresUrl?.startsWith('postgres') && process.env.REDIS_URL) modes.push(productionMode(postgresUrl, process.env.REDIS_URL));

const baseline = await startServer(new URL('./baseline-server.ts', import.meta.url).pathname, [], {});
const echo: LoadRequest[] = [{ method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: json({ lat: 12.9716, lon: 77.5946 }) }];

try {
  for (const mode of modes) {
    log(`mode ${mode.name}`);
    await mode.resetRedis();
    const url = await mode.freshDatabase('main');
    const env = { ...mode.env, DATABASE_URL: url };
    if (['location', 'status', 'estimate', 'booking'].some(wanted)) await rideScenarios(mode, env);
    if (wanted('nearby')) await nearbyScenarios(mode, env);
    if (wanted('insights')) await insightsScenario(mode, { ...mode.env, DATABASE_URL: await mode.freshDatabase('insights') });
    if (wanted('soak')) await soakScenario(mode, { ...env, DATABASE_URL: await mode.freshDatabase('soak') });
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      if (!wanted(name)) continue;
      await mode.resetRedis();
      rows.push(...(await scenario(mode, { ...mode.env, DATABASE_URL: await mode.freshDatabase(name) })));
    }
  }
} finally {
  await baseline.stop();
  for (const mode of modes) await mode.cleanup();
  rmSync(scratch, { recursive: true, force: true });
}
report();

/** Runs the scenario and the bare-Fastify baseline alternately, after a warm-up of each. */
async function versusBaseline(service: ServiceUnderTest, requests: LoadRequest[]): Promise<{ service: Measurement[]; base: number[] }> {
  await load(baseline.url, echo, { seconds: SETTINGS.warmup });
  await load(service.url, requests, { seconds: SETTINGS.warmup });
  const measured: Measurement[] = [];
  const base: number[] = [];
  for (let i = 0; i < SETTINGS.repeats; i++) {
    base.push((await load(baseline.url, echo, { seconds: SETTINGS.seconds })).requestsPerSecond);
    measured.push(await service.measure(requests, { seconds: SETTINGS.seconds }));
  }
  return { service: measured, base };
}

function throughputRow(scenario: string, mode: string, runs: { service: Measurement[]; base: number[] }, targetRatio: number): Row {
  const rps = runs.service.map((r) => r.requestsPerSecond);
  const baseRps = median(runs.base);
  const ratio = round(median(rps) / baseRps);
  const summary = windowsSummary(runs.service);
  return {
    scenario,
    mode,
    requestsPerSecond: Math.round(median(rps)),
    p50: median(runs.service.map((r) => r.p50)),
    p99: median(runs.service.map((r) => r.p99)),
    spreadPercent: spread(rps),
    baseline: 'bare Fastify JSON echo',
    baselineValue: Math.round(baseRps),
    ratio,
    ...summary,
    target: `≥ ${targetRatio} × baseline req/s`,
    met: ratio >= targetRatio && summary.errors === 0,
  };
}

async function rideScenarios(mode: Mode, env: Record<string, string | undefined>) {
  log('loading 1,000 riders, 1,000 drivers and 1,000 accepted rides');
  // Five riders per driver: each holds at most MAX_OPEN_RIDES_PER_RIDER open bookings, and the
  // booking scenario books for every rider again and again.
  const fixtures = await loadFixtures(configFor(env), { riders: 5 * SETTINGS.rides, drivers: SETTINGS.rides, acceptedRides: SETTINGS.rides });
  const service = await startService([], env);
  try {
    if (wanted('location')) {
      // About a kilometre from pickup, so the run measures updates, not arrival notices.
      const requests: LoadRequest[] = fixtures.rides.map((ride) => ({
        method: 'POST',
        path: `/rides/location/${ride.id}`,
        headers: bearer(ride.driverToken),
        body: json({ lat: ride.pickup.lat + 0.009, lon: ride.pickup.lon }),
      }));
      log('location updates');
      const runs = await versusBaseline(service, requests);
      rows.push(throughputRow('driver location updates (1,000 active rides)', mode.name, runs, 0.5));
      const seventy = Math.round(0.7 * median(runs.service.map((r) => r.requestsPerSecond)));
      const paced = await service.measure(requests, { seconds: SETTINGS.seconds, overallRate: seventy });
      const summary = windowsSummary([paced]);
      rows.push({
        scenario: `location updates at 70 % of max (${seventy} req/s)`,
        mode: mode.name,
        requestsPerSecond: Math.round(paced.requestsPerSecond),
        p50: paced.p50,
        p99: paced.p99,
        ...summary,
        target: 'p99 < 25 ms',
        met: paced.p99 < 25 && summary.errors === 0,
      });
    }
    if (wanted('status')) {
      log('public ride status');
      const requests: LoadRequest[] = fixtures.rides.map((ride) => ({ method: 'GET', path: `/rides/status/${ride.id}` }));
      rows.push(throughputRow('public ride status (GET /rides/status/{id})', mode.name, await versusBaseline(service, requests), 0.6));
    }
    if (wanted('estimate')) {
      log('fare estimates');
      // Trips of 2 to 12 km around Bengaluru, quoted by the default (straight) router with learned times.
      const requests: LoadRequest[] = Array.from({ length: 100 }, (_, i) => ({
        method: 'GET',
        path: `/rides/estimate?pickupLat=${(12.9 + (i % 10) * 0.01).toFixed(4)}&pickupLon=77.55&dropLat=${(12.95 + Math.floor(i / 10) * 0.008).toFixed(4)}&dropLon=77.62`,
      }));
      rows.push(throughputRow('fare estimate (GET /rides/estimate, straight routing)', mode.name, await versusBaseline(service, requests), 0.5));
    }
    if (wanted('booking')) await bookingScenario(mode, env, service, fixtures);
  } finally {
    await service.stop();
  }
}

async function bookingScenario(mode: Mode, env: Record<string, string | undefined>, service: ServiceUnderTest, fixtures: Fixtures) {
  log('durable bookings against raw durable inserts');
  const requests: LoadRequest[] = fixtures.riders.map((rider, i) => ({
    method: 'POST',
    path: '/rides/book',
    headers: bearer(rider.token),
    body: json({ pickupLat: 12.9 + (i % 50) * 0.01, pickupLon: 77.5, dropLat: 12.95, dropLon: 77.6, paymentMode: 'CASH', pickupLocation: `bench ${i}` }),
  }));
  await load(service.url, requests, { seconds: SETTINGS.warmup });
  const bookings: Measurement[] = [];
  const raw: number[] = [];
  for (let i = 0; i < SETTINGS.repeats; i++) {
    raw.push(await rawInsertRate(env));
    bookings.push(await service.measure(requests, { seconds: SETTINGS.seconds }));
  }
  const rps = bookings.map((r) => r.requestsPerSecond);
  const base = median(raw);
  const ratio = round(median(rps) / base);
  const summary = windowsSummary(bookings);
  rows.push({
    scenario: 'booking (POST /rides/book, durable)',
    mode: mode.name,
    requestsPerSecond: Math.round(median(rps)),
    p50: median(bookings.map((r) => r.p50)),
    p99: median(bookings.map((r) => r.p99)),
    spreadPercent: spread(rps),
    baseline: mode.name === 'embedded' ? 'raw SQLite single-row durable inserts' : 'raw PostgreSQL single-row inserts (pool of 10)',
    baselineValue: Math.round(base),
    ratio,
    ...summary,
    target: '≥ 0.5 × raw durable insert rate',
    met: ratio >= 0.5 && summary.errors === 0,
  });
}

async function rawInsertRate(env: Record<string, string | undefined>): Promise<number> {
  const child = spawnNode(new URL('./raw-inserts.ts', import.meta.url).pathname, [String(SETTINGS.seconds)], env, PINNING?.service);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await once(child, 'exit');
  return (JSON.parse(output.trim().split('\n').at(-1)!) as { insertsPerSecond: number }).insertsPerSecond;
}

async function nearbyScenarios(mode: Mode, env: Record<string, string | undefined>) {
  const requests: LoadRequest[] = queryPoints(1_000).map((p) => ({ method: 'GET', path: `/rides/drivers/nearby?lat=${p.lat.toFixed(5)}&lon=${p.lon.toFixed(5)}` }));
  const measured: Record<number, Measurement[]> = {};
  for (const drivers of [SETTINGS.nearbyDrivers, SETTINGS.scalingDrivers]) {
    await mode.resetRedis();
    log(`nearby search with ${drivers.toLocaleString('en')} drivers indexed`);
    const service = await startService([`--drivers=${drivers}`], env);
    try {
      const runs = await versusBaseline(service, requests);
      measured[drivers] = runs.service;
      if (drivers === SETTINGS.nearbyDrivers) {
        rows.push(throughputRow(`nearby search, ${drivers.toLocaleString('en')} drivers over 20 cities`, mode.name, runs, 0.5));
      } else {
        const p50 = median(runs.service.map((r) => r.p50));
        const reference = median(measured[SETTINGS.nearbyDrivers].map((r) => r.p50));
        const ratio = round(p50 / reference);
        rows.push({
          ...throughputRow(`nearby search, ${drivers.toLocaleString('en')} drivers, same density near the query`, mode.name, runs, 0),
          baseline: `p50 with ${SETTINGS.nearbyDrivers.toLocaleString('en')} drivers`,
          baselineValue: reference,
          ratio,
          target: 'p50 within 1.3 × of the smaller index',
          met: ratio <= 1.3,
        });
        const rss = rssMb(pidOf(service.server));
        rows.push({
          scenario: `memory with ${drivers.toLocaleString('en')} drivers indexed`,
          mode: mode.name,
          value: `${rss} MB RSS${mode.name === 'production' ? ` (+ Redis ${await redisMemoryMb(env.REDIS_URL!)} MB)` : ''}`,
          target: 'RSS < 500 MB',
          met: rss < 500,
        });
      }
    } finally {
      await service.stop();
    }
  }
}

async function insightsScenario(mode: Mode, env: Record<string, string | undefined>) {
  log(`insights over ${SETTINGS.insightsRides.toLocaleString('en')} rides, cache off (generating the history takes a while)`);
  const child = spawnNode(new URL('./insights.ts', import.meta.url).pathname, [`--rides=${SETTINGS.insightsRides}`, '--runs=20'], env, PINNING?.service);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`insights benchmark failed:\n${output.slice(-2000)}`);
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as { p50: number; p95: number; naiveMs: number; speedup: number; sampleSize: number };
  rows.push({
    scenario: `insights over ${SETTINGS.insightsRides.toLocaleString('en')} rides, cache off`,
    mode: mode.name,
    p50: result.p50,
    value: `p95 ${result.p95} ms`,
    baseline: 'naive: load every ride of the window, count in memory',
    baselineValue: result.naiveMs,
    ratio: result.speedup,
    target: 'p95 < 300 ms and ≥ 20 × faster than naive',
    met: result.p95 < 300 && result.speedup >= 20,
  });
}

async function soakScenario(mode: Mode, env: Record<string, string | undefined>) {
  log(`mixed soak for ${SETTINGS.soakSeconds} s`);
  const fixtures = await loadFixtures(configFor(env), { riders: SETTINGS.soakPairs, drivers: SETTINGS.soakPairs, acceptedRides: 0 });
  const fixturesFile = join(scratch, `soak-${mode.name}.json`);
  writeFileSync(fixturesFile, JSON.stringify(fixtures));
  const service = await startService([], env);
  const samples: Array<{ at: number; rss: number }> = [];
  const started = Date.now();
  const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(pidOf(service.server)) }), 5_000);
  const printedBefore = service.server.output().length;
  try {
    const child = spawnNode(new URL('./soak.ts', import.meta.url).pathname, [service.url, fixturesFile, String(SETTINGS.soakSeconds), String(SETTINGS.soakPairs)], {}, PINNING?.load);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await once(child, 'exit');
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as { cycles: number; requests: number; errors: number; errorSamples: string[] };
    // Warm-up is the first fifth of the run; "flat" means the later samples stay within 10 % (or 15 MB) of it.
    const warm = samples.filter((s) => s.at >= SETTINGS.soakSeconds / 5);
    const atWarm = warm[0]?.rss ?? samples.at(-1)!.rss;
    const peak = Math.max(...warm.map((s) => s.rss));
    const flat = peak <= Math.max(atWarm * 1.1, atWarm + 15);
    const serviceLog = serviceWarnings(service.server.output().slice(printedBefore));
    rows.push({
      scenario: `mixed soak, ${SETTINGS.soakSeconds >= 60 ? `${SETTINGS.soakSeconds / 60} min` : `${SETTINGS.soakSeconds} s`} (${SETTINGS.soakPairs} rider/driver pairs)`,
      mode: mode.name,
      requestsPerSecond: Math.round(result.requests / SETTINGS.soakSeconds),
      errors: result.errors,
      ...((result.errors > 0 || serviceLog.length > 0) && { failures: { samples: result.errorSamples.map((message) => ({ message, count: 1 })), serviceLog } }),
      value: `${result.cycles} rides; RSS ${atWarm} MB after warm-up, peak ${peak} MB, end ${samples.at(-1)!.rss} MB`,
      target: '0 errors, RSS flat after warm-up',
      met: result.errors === 0 && flat,
    });
  } finally {
    clearInterval(sampler);
    await service.stop();
  }
}

function configFor(env: Record<string, string | undefined>) {
  return loadConfig({ ...process.env, ...env });
}

async function redisMemoryMb(url: string): Promise<number> {
  const redis = new Redis(url);
  const info = await redis.info('memory');
  redis.disconnect();
  return Math.round(Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0) / 1024 / 102.4) / 10;
}

function embeddedMode(): Mode {
  const dir = mkdtempSync(join(tmpdir(), 'ride-bench-db-'));
  return {
    name: 'embedded',
    env: { ...serviceEnv(), REDIS_URL: undefined, JWT_SECRET: randomBytes(32).toString('hex') },
    freshDatabase: async (label) => `sqlite:${join(dir, `${label}.db`)}`,
    resetRedis: async () => {},
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function productionMode(databaseUrl: string, redisUrl: string): Mode {
  // A Redis logical database of its own, emptied before each service starts.
  const redis = new URL(redisUrl);
  redis.pathname = '/15';
  const schemas: string[] = [];
  return {
    name: 'production',
    // Pub/sub channels are global to a Redis server, whatever the logical database: a key prefix of the
    // run's own keeps another service on the same Redis (a test run, a second bench) off this one's
    // channels, where the drivers' positions copy would take their changes for its own.
    env: { ...serviceEnv(), REDIS_URL: redis.toString(), REDIS_KEY_PREFIX: `bench-${process.pid}:`, JWT_SECRET: randomBytes(32).toString('hex') },
    async freshDatabase(label) {
      const schema = `bench_${label}_${Date.now()}`;
      await withPostgres((client) => client.query(`create schema ${schema}`));
      schemas.push(schema);
      const url = new URL(databaseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      // Names the connections, so that the cost meter (lib/cost.ts) counts the backends serving this database's service.
      url.searchParams.set('application_name', schema);
      return url.toString();
    },
    async resetRedis() {
      const client = new Redis(redis.toString());
      await client.flushdb();
      client.disconnect();
    },
    async cleanup() {
      for (const schema of schemas.splice(0)) await withPostgres((client) => client.query(`drop schema ${schema} cascade`));
    },
  };

  async function withPostgres(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }
}

/**
 * Request logs and rate limits off: the benchmark measures the API, not the log volume. Riders may
 * hold the most open rides the service allows, since the booking scenario never ends its rides.
 */
function serviceEnv(): Record<string, string> {
  // The location scenario reports 1,000 drivers' positions as fast as it can, about 20 a second each:
  // the per-driver limit is kept (its check is measured) but set above that.
  return { RATE_LIMIT_PER_MINUTE: '0', AUTH_RATE_LIMIT_PER_MINUTE: '0', MAX_OPEN_RIDES_PER_RIDER: '100', DRIVER_POSITIONS_PER_SECOND: '1000', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
}

function report() {
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const header = ['scenario', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'spread', 'baseline', 'ratio', 'CPU ms/op: service · PG · Redis', 'target', 'met'];
  const lines = rows.map((r) => [
    r.scenario + (r.value ? ` — ${r.value}` : ''),
    r.mode,
    r.requestsPerSecond?.toLocaleString('en') ?? '',
    r.p50 ?? '',
    r.p99 ?? '',
    r.errors ?? '',
    r.spreadPercent === undefined ? '' : `±${r.spreadPercent / 2} %`,
    r.baseline ? `${r.baseline}: ${r.baselineValue?.toLocaleString('en')}` : '',
    r.ratio ?? '',
    formatCpu(r.cpuMsPerOperation),
    r.target,
    r.met ? 'yes' : 'NO',
  ]);
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  console.log(`\n${quick ? 'Quick smoke run (smaller data sets; targets apply to the full run)\n' : ''}Machine: ${machine}; service pinned to core ${PINNING?.service ?? '-'}, load to core ${PINNING?.load ?? '-'}\n\n${table}\n`);
  const failures = formatFailures(rows);
  if (failures) console.log(failures);
  const results = new URL('./results/', import.meta.url).pathname;
  mkdirSync(results, { recursive: true });
  // latest.json is the last full run (README and docs/performance.md quote it): a partial run writes beside it.
  const file = quick ? 'quick.json' : partial ? 'partial.json' : 'latest.json';
  writeFileSync(join(results, file), JSON.stringify({ generatedAt: new Date().toISOString(), quick, machine, settings: SETTINGS, rows }, null, 2));
}
