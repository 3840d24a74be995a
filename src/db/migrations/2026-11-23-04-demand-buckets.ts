import { sql, type Kysely } from 'kysely';

// Frozen once released. Demand statistics per 15-minute bucket (900000 ms), kept as rides are
// booked and accepted, so the demand model reads a row per bucket instead of every ride:
// rides booked, distinct riders among them, rides accepted and their summed accept delay.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('demand_buckets')
    .addColumn('bucket_start', 'bigint', (c) => c.primaryKey())
    .addColumn('rides', 'integer', (c) => c.notNull())
    .addColumn('riders', 'integer', (c) => c.notNull())
    .addColumn('accepted', 'integer', (c) => c.notNull())
    .addColumn('accept_delay_ms', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    insert into demand_buckets (bucket_start, rides, riders, accepted, accept_delay_ms)
    select (created_at / 900000) * 900000, count(*), count(distinct rider_id), count(accepted_at), coalesce(sum(accepted_at - created_at), 0)
    from rides group by created_at / 900000`.execute(db);
  // The bucket counts no longer read rides; the index only slowed bookings down.
  await db.schema.dropIndex('rides_created_bucket').execute();
}
