import { sql, type Kysely } from 'kysely';

// Frozen once released. The demand model counts rides per 15-minute bucket (900000 ms); this index
// holds the bucket and the time, so those counts are read from the index in bucket order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('rides_created_bucket').on('rides').expression(sql`(created_at / 900000), created_at`).execute();
}
