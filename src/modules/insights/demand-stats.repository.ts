import type { Db, WriteDb } from '../../db/database.ts';

// The demand statistics (table demand_buckets, owned here): per-bucket totals, one row per 15 minutes.

export interface BucketCounts {
  rides: number;
  riders: number;
  accepted: number;
  acceptDelayMs: number;
}

/** Adds counts to their buckets; several instances add to the same rows, so values are increments. */
export async function addToBuckets(db: WriteDb, entries: ReadonlyArray<[number, BucketCounts]>): Promise<void> {
  // In bucket order, so two instances adding to the same buckets lock them in the same order.
  for (const [start, counts] of [...entries].sort(([a], [b]) => a - b)) {
    await db
      .insertInto('demand_buckets')
      .values({ bucket_start: start, rides: counts.rides, riders: counts.riders, accepted: counts.accepted, accept_delay_ms: counts.acceptDelayMs })
      .onConflict((oc) =>
        oc.column('bucket_start').doUpdateSet((eb) => ({
          rides: eb('demand_buckets.rides', '+', eb.ref('excluded.rides')),
          riders: eb('demand_buckets.riders', '+', eb.ref('excluded.riders')),
          accepted: eb('demand_buckets.accepted', '+', eb.ref('excluded.accepted')),
          accept_delay_ms: eb('demand_buckets.accept_delay_ms', '+', eb.ref('excluded.accept_delay_ms')),
        })),
      )
      .execute();
  }
}

export async function bucketsSince(db: Db, since: number): Promise<Array<{ start: number } & BucketCounts>> {
  const rows = await db.selectFrom('demand_buckets').selectAll().where('bucket_start', '>=', since).execute();
  return rows.map((row) => ({
    start: Number(row.bucket_start),
    rides: Number(row.rides),
    riders: Number(row.riders),
    accepted: Number(row.accepted),
    acceptDelayMs: Number(row.accept_delay_ms),
  }));
}
