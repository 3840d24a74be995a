import type { Kysely } from 'kysely';

// Frozen once released. Insights count drivers by when they last accepted, finished or lost a
// ride; each index carries the driver so those counts never touch the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('rides_accepted_at').on('rides').columns(['accepted_at', 'driver_id']).execute();
  await db.schema.createIndex('rides_completed_at').on('rides').columns(['completed_at', 'driver_id']).execute();
  await db.schema.createIndex('rides_cancelled_at').on('rides').columns(['cancelled_at', 'driver_id']).execute();
}
