// The operators' overview over a large history: GET /admin/overview answered by the real service,
// started on a database holding a million rides over 14 days (100,000 in quick mode), a quarter of
// the completed ones paid online, and every driver of the history online. Requests go one at a
// time, as an operator's console polls, and are timed end to end by the client.
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { TokenService } from '../../src/platform/auth/tokens.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { log, quick, SETTINGS, type Mode, type Row, type Scenario } from '../lib/context.ts';
import { generateHistory, HISTORY_DRIVERS } from '../lib/history.ts';
import { SERVICE_NODE_FLAGS, startServer } from '../lib/processes.ts';
import { median, percentile, round } from '../lib/stats.ts';

const WARMUP_REQUESTS = 20;
const TIMED_REQUESTS = quick ? 100 : 500;
const TARGET_P95_MS = 100;
const ONLINE_AHEAD_MS = 30 * 60_000;

export const operatorScenario: Scenario = async (mode: Mode, env: Record<string, string | undefined>): Promise<Row[]> => {
  const rides = SETTINGS.insightsRides;
  log(`operator overview over ${rides.toLocaleString('en')} rides (generating the history takes a while)`);
  const token = await loadHistory(env, rides);
  const service = await startServer(new URL('../service.ts', import.meta.url).pathname, [], env, { flags: SERVICE_NODE_FLAGS });
  try {
    const overview = async () => {
      const started = performance.now();
      const response = await fetch(`${service.url}/admin/overview`, { headers: { authorization: `Bearer ${token}` } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET /admin/overview answered ${response.status}: ${body}`);
      return { ms: performance.now() - started, body: JSON.parse(body) as { ridesToday: Record<string, number>; drivers: { online: number } } };
    };
    for (let i = 0; i < WARMUP_REQUESTS; i++) await overview();
    const timings: number[] = [];
    for (let i = 0; i < TIMED_REQUESTS; i++) timings.push((await overview()).ms);
    const { body } = await overview();
    const today = Object.values(body.ridesToday).reduce((sum, count) => sum + count, 0);
    const p95 = round(percentile(timings, 95), 1);
    return [
      {
        scenario: `operator overview (GET /admin/overview) over ${rides.toLocaleString('en')} rides, ${today.toLocaleString('en')} of them today, ${body.drivers.online.toLocaleString('en')} drivers online`,
        mode: mode.name,
        p50: round(median(timings), 1),
        value: `p95 ${p95} ms`,
        target: `p95 < ${TARGET_P95_MS} ms`,
        met: p95 < TARGET_P95_MS,
      },
    ];
  } finally {
    await service.stop();
  }
};

/** The history, its online payments, its drivers online and an operator; the operator's access token. */
async function loadHistory(env: Record<string, string | undefined>, rides: number): Promise<string> {
  const config = loadConfig({ ...process.env, ...env });
  const database = connectDatabase(config.database);
  try {
    await database.migrate();
    const now = Date.now();
    const adminId = await database.transactions.run(async ({ db }) => {
      await generateHistory(db, database.kind, now, rides);
      await sql`insert into payment_sessions (id, user_id, ride_id, order_id, receipt, amount, currency, status, created_at, updated_at)
        select 'ps_bench_' || id, rider_id, id, 'order_bench_' || id, 'rcpt_bench_' || id, fare * 100, 'INR', 'completed', completed_at, completed_at
        from rides where status = 'COMPLETED' and id % 4 = 0`.execute(db);
      // Stamped ahead of time, so the drivers stay online however long loading and measuring take.
      const seen = Date.now() + ONLINE_AHEAD_MS;
      await sql`insert into driver_presence (driver_id, lat, lon, updated_at, online)
        select id, 12.97, 77.59, ${seen}, 1 from users where role = 'DRIVER' and email like 'history-%'`.execute(db);
      // Made as `npm run create-admin` makes one (not through ADMIN_EMAILS, which the service would check at start).
      const admin = await db
        .insertInto('users')
        .values({ email: `operator-${now}@bench.local`, name: 'operator', password_hash: 'x', role: 'ADMIN', role_source: 'operator', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return admin.id;
    });
    // Fresh statistics for the planners (VACUUM cannot run inside a transaction on PostgreSQL).
    if (database.kind === 'postgres') await sql`vacuum analyze`.execute(database.db);
    else await database.transactions.run((tx) => sql`analyze`.execute(tx.db));
    log(`history loaded: ${rides.toLocaleString('en')} rides, ${HISTORY_DRIVERS.toLocaleString('en')} drivers online`);
    return await new TokenService(config.jwtSecret, config.accessTokenTtlSeconds, systemClock).signAccess({ id: adminId, role: 'ADMIN' });
  } finally {
    await database.destroy();
  }
}
