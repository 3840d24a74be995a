import type { Kysely } from 'kysely';

// Frozen once released. A notification's text as a catalogue name and its values (JSON), so it is
// shown in its reader's language whenever it is read; null for notifications written before, which
// keep their English title and message.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('text_name', 'text').execute();
  await db.schema.alterTable('notifications').addColumn('text_values', 'text').execute();
}
