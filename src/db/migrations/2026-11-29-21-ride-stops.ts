import type { Kysely } from 'kysely';

// Frozen once released. A ride's stops between pickup and drop (decisions.md "Scheduled rides, stops
// and changes"): a JSON list in the order booked, each with its place and, as the trip goes, when the
// driver marked it reached and when the ride left it (waiting at a stop is charged between the two).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rides').addColumn('stops', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}
