import { sql, type Kysely } from 'kysely';

// Frozen once released. Insights count drivers by when they last accepted, finished or lost a
// ride; each index carries the driver so those counts never touch the table, and leaves out the
// rides where the time is still null, so a new booking does not touch it.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['accepted_at', 'completed_at', 'cancelled_at']) {
    await db.schema.createIndex(`rides_${column}`).on('rides').columns([column, 'driver_id']).where(sql.ref(column), 'is not', null).execute();
  }
}
