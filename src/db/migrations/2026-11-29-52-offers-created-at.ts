import type { Kysely } from 'kysely';

// Frozen once released. What-if replays fit drivers' acceptance to a period's offers
// (offers.repository.ts answeredBetween): found by the time they were made, not by a scan of them all.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('offers_created_at').on('offers').column('created_at').execute();
}
