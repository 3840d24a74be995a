import type { Kysely } from 'kysely';

// Frozen once released. Learned travel times (insights): per pickup zone, drop zone and local hour of
// week (0 = Monday 00:00), the completed trips counted and the sum of their ratios of actual to router
// driving minutes. Several instances add to the same rows, so both are increments.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('travel_time_cells')
    .addColumn('pickup_zone', 'text', (c) => c.notNull())
    .addColumn('drop_zone', 'text', (c) => c.notNull())
    .addColumn('hour_of_week', 'integer', (c) => c.notNull())
    .addColumn('trips', 'integer', (c) => c.notNull())
    .addColumn('ratio_sum', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('travel_time_cells_pkey', ['pickup_zone', 'drop_zone', 'hour_of_week'])
    .execute();
}
