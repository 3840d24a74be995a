import { sql, type Kysely } from 'kysely';

// Frozen once released. The operators' overview counts today's rides by status with their fares,
// the pickups of the last hour, and today's payments, from indexes alone however many rows there are.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Holds everything "rides booked since … by status, with fares" reads. It serves any range of
  // booking times as the index it replaces did, so a booking still writes as many indexes as before.
  await db.schema.createIndex('rides_created_status_fare').on('rides').columns(['created_at', 'status', 'fare']).execute();
  await db.schema.dropIndex('rides_created_at').execute();
  // Partial: a booking does not touch it, a pickup adds one entry.
  await db.schema.createIndex('rides_picked_at').on('rides').columns(['picked_at', 'accepted_at']).where(sql.ref('picked_at'), 'is not', null).execute();
  await db.schema.createIndex('payment_sessions_status_updated').on('payment_sessions').columns(['status', 'updated_at', 'amount']).execute();
}
