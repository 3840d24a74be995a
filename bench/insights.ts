// Insights over a large ride history with the cache off: the real InsightsService.compute()
// against the naive way (load every ride of the window, count in memory), in the same process.
import { LearnedDetours } from '../src/platform/routing/learned-detours.ts';
import { StraightRouter } from '../src/platform/routing/straight-router.ts';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import type { Database } from '../src/db/database.ts';
import { DriversService } from '../src/modules/drivers/drivers.service.ts';
import { forecast, MODEL_CONSTANTS } from '../src/modules/insights/insights.model.ts';
import { createInsights } from '../src/modules/insights/insights.module.ts';
import { ZoneTable } from '../src/modules/insights/zone-table.service.ts';
import { RideStats } from '../src/modules/rides/ride-stats.service.ts';
import { systemClock } from '../src/platform/clock.ts';
import { DomainEventDispatcher } from '../src/platform/domain-events.ts';
import { MemoryCounters } from '../src/platform/counters.ts';
import { MemoryDriverIndex } from '../src/platform/geo/memory-driver-index.ts';
import { MemoryCache } from '../src/platform/shared-cache.ts';
import { generateHistory } from './lib/history.ts';
import { median, percentile, round } from './lib/stats.ts';

const rides = Number(/--rides=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 1_000_000);
const runs = Number(/--runs=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 20);
const DAY = 86_400_000;

const config = loadConfig();
const database = connectDatabase(config.database);
await database.migrate();
const { db, kind, transactions } = database;
const now = Date.now();
const loadStarted = performance.now();
await transactions.run((tx) => generateHistory(tx.db, kind, now, rides));
// Fresh statistics for the planners (VACUUM cannot run inside a transaction on PostgreSQL).
if (kind === 'postgres') await sql`vacuum analyze`.execute(db);
else await transactions.run((tx) => sql`analyze`.execute(tx.db));
const loadSeconds = (performance.now() - loadStarted) / 1000;

// The services as the app wires them; only the ride statistics and presence are exercised.
const log = pino({ level: 'warn' });
const clock = systemClock;
const drivers = new DriversService({ db, transactions, index: new MemoryDriverIndex(), clock, log, events: new DomainEventDispatcher(log), positionsPerSecond: config.driverPositionsPerSecond });
const zones = new ZoneTable({ cache: new MemoryCache(clock), clock, log });
const { insights, demand } = createInsights({ db, transactions, counters: new MemoryCounters(clock), clock, log, events: new DomainEventDispatcher(log), rides: new RideStats(db), drivers, zones, router: new StraightRouter(), detours: new LearnedDetours(), timeZone: config.serviceTimezone });

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
for (let i = 0; i < 3; i++) await insights.current();
const computeMs: number[] = [];
for (let i = 0; i < runs; i++) computeMs.push(await timed(() => insights.current()));
const naiveMs: number[] = [];
for (let i = 0; i < 3; i++) naiveMs.push(await timed(() => naive(db)));
const sample = await insights.current();

console.log(
  JSON.stringify({
    rides,
    loadSeconds: round(loadSeconds, 1),
    sampleSize: sample.sampleSize,
    p50: round(median(computeMs), 1),
    p95: round(percentile(computeMs, 95), 1),
    naiveMs: round(median(naiveMs), 1),
    speedup: round(median(naiveMs) / median(computeMs), 1),
  }),
);
await drivers.close();
await demand.close();
await database.destroy();

/** Counting the naive way: every ride of the window loaded, then counted in JavaScript. */
async function naive(database: Kysely<Database>) {
  const c = MODEL_CONSTANTS;
  const at = Date.now();
  const all = await database.selectFrom('rides').selectAll().where('created_at', '>=', at - c.lookbackDays * DAY).execute();
  const bucketMs = c.bucketMinutes * 60_000;
  const buckets = new Map<number, Set<number>>();
  const active = new Set<number>();
  let open = 0;
  const openRiders = new Set<number>();
  let delay = 0;
  let accepted = 0;
  const busy = new Set<number>();
  const recentSince = at - c.recentHours * 3_600_000;
  const activeSince = at - c.activeDriverHours * 3_600_000;
  for (const ride of all) {
    const start = Math.floor(ride.created_at / bucketMs) * bucketMs;
    buckets.set(start, (buckets.get(start) ?? new Set()).add(ride.rider_id));
    if (ride.created_at >= recentSince) {
      if (ride.accepted_at !== null) {
        delay += ride.accepted_at - ride.created_at;
        accepted++;
      }
    }
    if (ride.status === 'REQUESTED') {
      open++;
      openRiders.add(ride.rider_id);
    }
    if (ride.driver_id !== null && (ride.status === 'ACCEPTED' || ride.status === 'PICKED')) busy.add(ride.driver_id);
    const lastActivity = Math.max(ride.accepted_at ?? 0, ride.completed_at ?? 0, ride.cancelled_at ?? 0);
    if (ride.driver_id !== null && (lastActivity >= activeSince || busy.has(ride.driver_id))) active.add(ride.driver_id);
  }
  return forecast({
    now: at,
    timeZone: config.serviceTimezone,
    buckets: [...buckets].map(([start, riders]) => ({ start, count: riders.size })),
    sampleSize: all.length,
    recentDemand: [...buckets].reduce((sum, [start, riders]) => sum + (start + bucketMs > recentSince ? riders.size : 0), 0),
    openRequests: open,
    openRiders: openRiders.size,
    activeDrivers: active.size,
    busyDrivers: busy.size,
    recentAcceptDelayMinutes: accepted ? delay / accepted / 60_000 : undefined,
    recentAccepted: accepted,
  });
}
