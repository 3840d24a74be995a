import type { Kysely } from 'kysely';

// Frozen once released. Insights count drivers by when they last accepted, finished or lost a ride.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('rides_accepted_at').on('rides').column('accepted_at').execute();
  await db.schema.createIndex('rides_completed_at').on('rides').column('completed_at').execute();
  await db.schema.createIndex('rides_cancelled_at').on('rides').column('cancelled_at').execute();
}
