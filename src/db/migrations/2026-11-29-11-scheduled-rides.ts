import { sql, type Kysely } from 'kysely';

// Frozen once released. Rides booked for later (decisions.md "Scheduled rides, stops and changes"):
// when the rider wants to be picked up, and when the ride entered dispatch (its lead time before).
// Until then it waits; the partial index finds those due without reading any ride booked for now.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rides').addColumn('scheduled_at', 'bigint').execute();
  await db.schema.alterTable('rides').addColumn('released_at', 'bigint').execute();
  await db.schema
    .createIndex('rides_scheduled_waiting')
    .on('rides')
    .column('scheduled_at')
    .where(sql.ref('released_at'), 'is', null)
    .where(sql.ref('scheduled_at'), 'is not', null)
    .execute();
}
