import type { Kysely } from 'kysely';

// Frozen once released. A driver who goes offline keeps their presence row (when they were last
// seen) but is no longer shown again when an instance restarts.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('driver_presence').addColumn('online', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}
