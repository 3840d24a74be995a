import type { Kysely } from 'kysely';

// Frozen once released. The `straight` router's detour factor learned per zone (insights): per zone a
// completed trip started in, the trips counted and the sum of their ratios of kilometres driven along
// the driver's positions to the great circle. Several instances add to the same rows, so both are increments.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('detour_cells')
    .addColumn('zone', 'text', (c) => c.primaryKey())
    .addColumn('trips', 'integer', (c) => c.notNull())
    .addColumn('ratio_sum', 'double precision', (c) => c.notNull())
    .execute();
}
