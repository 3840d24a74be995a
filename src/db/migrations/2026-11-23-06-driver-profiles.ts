import type { Kysely } from 'kysely';

// Frozen once released. A driver's vehicle, and whether an operator approved them (only consulted
// when DRIVER_APPROVAL_REQUIRED is on).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('driver_profiles')
    .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('vehicle_type', 'text', (c) => c.notNull())
    .addColumn('vehicle_number', 'text', (c) => c.notNull())
    .addColumn('vehicle_model', 'text')
    .addColumn('ac_available', 'integer', (c) => c.notNull())
    .addColumn('approval', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('approval_reason', 'text')
    .addColumn('approval_changed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('driver_profiles_approval').on('driver_profiles').columns(['approval', 'driver_id']).execute();
}
