import { sql, type Kysely } from 'kysely';

// Frozen once released. A driver's earnings read their rides completed in a period: this index
// finds them by driver and completion time, however many rides the driver has had. Partial: a
// booking does not touch it, a completion adds one entry.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('rides_driver_completed').on('rides').columns(['driver_id', 'completed_at']).where(sql.ref('completed_at'), 'is not', null).execute();
}
