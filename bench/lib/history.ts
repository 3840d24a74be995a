// A large ride history written straight into the database with SQL (a million rides in seconds),
// for the scenarios that measure reads over it: insights and the operators' overview.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../src/db/database.ts';

export const HISTORY_DRIVERS = 2_000;
export const HISTORY_RIDERS = 20_000;
const DAY = 86_400_000;

/**
 * `rides` rides over the 14 days before `at` (evenly spread), 88 % completed, 8 % cancelled by a
 * driver, 4 % cancelled unassigned, and a few hundred open or in progress in the last hour; the
 * demand buckets recounted from them.
 */
export async function generateHistory(database: Transaction<Database>, dialect: 'sqlite' | 'postgres', at: number, rides: number): Promise<void> {
  const span = 14 * DAY - 60_000;
  const now = dialect === 'postgres' ? sql`${at}::bigint` : sql`${at}`;
  const series = (count: number) =>
    dialect === 'sqlite'
      ? sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) select i from n`
      : sql`select i::bigint as i from generate_series(1, ${count}) as i`;
  // Spread by multiplicative hashing of the row number: deterministic, and each value computed once.
  await sql`insert into users (email, name, password_hash, role, created_at, updated_at)
    select 'history-' || i || '@bench.local', 'user ' || i, 'x', case when i <= ${HISTORY_DRIVERS} then 'DRIVER' else 'RIDER' end, 0, 0
    from (${series(HISTORY_DRIVERS + HISTORY_RIDERS)}) as s`.execute(database);
  const firstUser = Number((await sql<{ id: number }>`select min(id) as id from users where email like 'history-%'`.execute(database)).rows[0].id);
  await sql`insert into rides (rider_id, driver_id, status, ride_type, distance_km, duration_minutes, surge_multiplier, fare,
      payment_mode, payment_status, start_otp, end_otp, created_at, accepted_at, picked_at, completed_at, cancelled_at)
    select ${firstUser + HISTORY_DRIVERS} + (i * 7919) % ${HISTORY_RIDERS},
      case when i % 100 < 96 then ${firstUser} + (i * 104729) % ${HISTORY_DRIVERS} end,
      case when i % 100 < 88 then 'COMPLETED' else 'CANCELLED' end,
      'mini', 6, 15, 1, 170, 'CASH', 'PAID', '1234', '5678',
      ${now} - 60000 - (i * 2654435761) % ${span},
      case when i % 100 < 96 then ${now} - 60000 - (i * 2654435761) % ${span} + 90000 end,
      case when i % 100 < 88 then ${now} - 60000 - (i * 2654435761) % ${span} + 390000 end,
      case when i % 100 < 88 then ${now} - 60000 - (i * 2654435761) % ${span} + 1500000 end,
      case when i % 100 >= 88 then ${now} - 60000 - (i * 2654435761) % ${span} + 300000 end
    from (${series(rides)}) as s`.execute(database);
  // A live moment: open requests and rides in progress.
  await sql`insert into rides (rider_id, driver_id, status, ride_type, distance_km, duration_minutes, surge_multiplier, fare,
      payment_mode, payment_status, start_otp, end_otp, created_at, accepted_at)
    select ${firstUser + HISTORY_DRIVERS} + i, case when i > 150 then ${firstUser} + i end,
      case when i <= 150 then 'REQUESTED' when i <= 250 then 'ACCEPTED' else 'PICKED' end,
      'mini', 6, 15, 1, 170, 'UPI', 'PENDING', '1234', '5678', ${now} - i * 10000, case when i > 150 then ${now} - i * 5000 end
    from (${series(300)}) as s`.execute(database);
  await recountBuckets(database);
}

/**
 * Recounts every demand bucket (insights' demand_buckets) from the rides table: the history is written
 * around the service, which keeps the buckets as rides are booked.
 */
async function recountBuckets(database: Transaction<Database>): Promise<void> {
  await database.deleteFrom('demand_buckets').execute();
  await database
    .insertInto('demand_buckets')
    .columns(['bucket_start', 'rides', 'riders', 'accepted', 'accept_delay_ms'])
    .expression((eb) =>
      eb
        .selectFrom('rides')
        .select([
          sql<number>`(created_at / 900000) * 900000`.as('bucket_start'),
          eb.fn.countAll<number>().as('rides'),
          sql<number>`count(distinct rider_id)`.as('riders'),
          sql<number>`count(accepted_at)`.as('accepted'),
          sql<number>`coalesce(sum(accepted_at - created_at), 0)`.as('accept_delay_ms'),
        ])
        .groupBy(sql`created_at / 900000`),
    )
    .execute();
}
