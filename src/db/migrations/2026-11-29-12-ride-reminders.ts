import { sql, type Kysely } from 'kysely';

// Frozen once released. The reminders of a ride booked ahead (60 and 15 minutes before its time):
// how many have gone out (0, 1, 2), claimed by one conditional update so each goes out once across
// instances. The partial index holds rides booked ahead with a reminder still to send.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rides').addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createIndex('rides_scheduled_reminders')
    .on('rides')
    .column('scheduled_at')
    .where(sql.ref('scheduled_at'), 'is not', null)
    .where(sql.ref('reminders_sent'), '<', 2)
    .execute();
}
