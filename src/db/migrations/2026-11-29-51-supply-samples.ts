import type { Kysely } from 'kysely';

// Frozen once released. What-if replay (replay module): every SUPPLY_SAMPLE_MS, one row holding each
// online driver's position and state, packed and compressed (supply-samples.ts says how), so a week of a
// 2,000-driver city stays a few hundred megabytes. The start of its 30-second slot is the key: the
// first instance to write a slot is the one that sampled it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('supply_samples')
    .addColumn('at', 'bigint', (c) => c.primaryKey())
    .addColumn('online', 'integer', (c) => c.notNull())
    .addColumn('busy', 'integer', (c) => c.notNull())
    .addColumn('drivers', 'text', (c) => c.notNull())
    .execute();
}
