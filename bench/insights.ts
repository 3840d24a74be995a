// Insights over a large ride history with the cache off: the real InsightsService.compute()
// against the naive way (load every ride of the window, count in memory), in the same process.
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { AuthService } from '../src/modules/auth/auth.service.ts';
import { DriversService } from '../src/modules/drivers/drivers.service.ts';
import { forecast, MODEL_CONSTANTS } from '../src/modules/insights/insights.model.ts';
import { InsightsService } from '../src/modules/insights/insights.service.ts';
import { NotificationsService } from '../src/modules/notifications/notifications.service.ts';
import { RidesService } from '../src/modules/rides/rides.service.ts';
import { SettingsService } from '../src/modules/settings/settings.service.ts';
import { TokenService } from '../src/platform/auth/tokens.ts';
import { systemClock } from '../src/platform/clock.ts';
import { MemoryCounters } from '../src/platform/counters.ts';
import { MemoryEventBus } from '../src/platform/event-bus.ts';
import { MemoryDriverIndex } from '../src/platform/geo/driver-index.ts';
import { createMailer } from '../src/platform/mail.ts';
import { MemoryCache } from '../src/platform/shared-cache.ts';
import { median, percentile, round } from './lib/stats.ts';

const rides = Number(/--rides=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 1_000_000);
const runs = Number(/--runs=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 20);
const DRIVERS = 2_000;
const RIDERS = 20_000;
const DAY = 86_400_000;

const config = loadConfig();
const { db, kind, transactions } = connectDatabase(config.database);
await migrateToLatest(db, kind);
const now = Date.now();
const loadStarted = performance.now();
await generateHistory(db, kind, now);
const loadSeconds = (performance.now() - loadStarted) / 1000;

// The services as the app wires them; only the ride statistics and presence are exercised.
const log = pino({ level: 'warn' });
const clock = systemClock;
const drivers = new DriversService(db, new MemoryDriverIndex(), clock, log);
const notifications = new NotificationsService(db, clock, new MemoryEventBus(), log);
const auth = new AuthService(db, new TokenService(config.jwtSecret, 3600, clock), createMailer(undefined, '', log), clock, {
  refreshTokenTtlSeconds: 3600,
  otpResendCooldownSeconds: 0,
  adminEmails: new Set(),
  otpKey: 'bench',
});
const ridesService = new RidesService({
  db,
  transactions,
  bus: new MemoryEventBus(),
  clock,
  log,
  counters: new MemoryCounters(clock),
  demand: async () => ({ surgeMultiplier: 1, pickupEtaMinutes: 5 }),
  users: auth,
  drivers,
  notifications,
  settings: new SettingsService(db, clock),
});
const insights = new InsightsService({ rides: ridesService, drivers, cache: new MemoryCache(clock), clock, timeZone: config.serviceTimezone, log });

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
for (let i = 0; i < 3; i++) await insights.compute();
const computeMs: number[] = [];
for (let i = 0; i < runs; i++) computeMs.push(await timed(() => insights.compute()));
const naiveMs: number[] = [];
for (let i = 0; i < 3; i++) naiveMs.push(await timed(() => naive(db)));
const sample = await insights.compute();

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
await ridesService.close();
await db.destroy();

/** Counting the naive way: every ride of the window loaded, then counted in JavaScript. */
async function naive(database: Kysely<Database>) {
  const c = MODEL_CONSTANTS;
  const at = Date.now();
  const all = await database.selectFrom('rides').selectAll().where('created_at', '>=', at - c.lookbackDays * DAY).execute();
  const bucketMs = c.bucketMinutes * 60_000;
  const buckets = new Map<number, number>();
  const active = new Set<number>();
  let recent = 0;
  let open = 0;
  let delay = 0;
  let accepted = 0;
  const busy = new Set<number>();
  const recentSince = at - c.recentHours * 3_600_000;
  const activeSince = at - c.activeDriverHours * 3_600_000;
  for (const ride of all) {
    const start = Math.floor(ride.created_at / bucketMs) * bucketMs;
    buckets.set(start, (buckets.get(start) ?? 0) + 1);
    if (ride.created_at >= recentSince) {
      recent++;
      if (ride.accepted_at !== null) {
        delay += ride.accepted_at - ride.created_at;
        accepted++;
      }
    }
    if (ride.status === 'REQUESTED') open++;
    if (ride.driver_id !== null && (ride.status === 'ACCEPTED' || ride.status === 'PICKED')) busy.add(ride.driver_id);
    const lastActivity = Math.max(ride.accepted_at ?? 0, ride.completed_at ?? 0, ride.cancelled_at ?? 0);
    if (ride.driver_id !== null && (lastActivity >= activeSince || busy.has(ride.driver_id))) active.add(ride.driver_id);
  }
  return forecast({
    now: at,
    timeZone: config.serviceTimezone,
    buckets: [...buckets].map(([start, count]) => ({ start, count })),
    recentRides: recent,
    openRequests: open,
    activeDrivers: active.size,
    busyDrivers: busy.size,
    recentAcceptDelayMinutes: accepted ? delay / accepted / 60_000 : undefined,
    recentAccepted: accepted,
  });
}

/**
 * `rides` rides over 14 days (evenly spread), 88 % completed, 8 % cancelled by a driver, 4 %
 * cancelled unassigned, and a few hundred open or in progress in the last hour.
 */
async function generateHistory(database: Kysely<Database>, dialect: 'sqlite' | 'postgres', at: number) {
  const span = 14 * DAY - 60_000;
  const now = dialect === 'postgres' ? sql`${at}::bigint` : sql`${at}`;
  const series = (count: number) =>
    dialect === 'sqlite'
      ? sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) select i from n`
      : sql`select i::bigint as i from generate_series(1, ${count}) as i`;
  // Spread by multiplicative hashing of the row number: deterministic, and each value computed once.
  await sql`insert into users (email, name, password_hash, role, created_at, updated_at)
    select 'history-' || i || '@bench.local', 'user ' || i, 'x', case when i <= ${DRIVERS} then 'DRIVER' else 'RIDER' end, 0, 0
    from (${series(DRIVERS + RIDERS)}) as s`.execute(database);
  const firstUser = Number((await sql<{ id: number }>`select min(id) as id from users where email like 'history-%'`.execute(database)).rows[0].id);
  await sql`insert into rides (rider_id, driver_id, status, ride_type, distance_km, duration_minutes, surge_multiplier, fare,
      payment_mode, payment_status, start_otp, end_otp, created_at, accepted_at, completed_at, cancelled_at)
    select ${firstUser + DRIVERS} + (i * 7919) % ${RIDERS},
      case when i % 100 < 96 then ${firstUser} + (i * 104729) % ${DRIVERS} end,
      case when i % 100 < 88 then 'COMPLETED' else 'CANCELLED' end,
      'mini', 6, 15, 1, 170, 'CASH', 'PAID', '1234', '5678',
      ${now} - 60000 - (i * 2654435761) % ${span},
      case when i % 100 < 96 then ${now} - 60000 - (i * 2654435761) % ${span} + 90000 end,
      case when i % 100 < 88 then ${now} - 60000 - (i * 2654435761) % ${span} + 1500000 end,
      case when i % 100 >= 88 then ${now} - 60000 - (i * 2654435761) % ${span} + 300000 end
    from (${series(rides)}) as s`.execute(database);
  // A live moment: open requests and rides in progress.
  await sql`insert into rides (rider_id, driver_id, status, ride_type, distance_km, duration_minutes, surge_multiplier, fare,
      payment_mode, payment_status, start_otp, end_otp, created_at, accepted_at)
    select ${firstUser + DRIVERS} + i, case when i > 150 then ${firstUser} + i end,
      case when i <= 150 then 'REQUESTED' when i <= 250 then 'ACCEPTED' else 'PICKED' end,
      'mini', 6, 15, 1, 170, 'UPI', 'PENDING', '1234', '5678', ${now} - i * 10000, case when i > 150 then ${now} - i * 5000 end
    from (${series(300)}) as s`.execute(database);
  if (dialect === 'postgres') await sql`vacuum analyze rides`.execute(database);
  else await sql`analyze`.execute(database);
}
