import type { Kysely } from 'kysely';

// Frozen once released. The language a user chose for the apps and the service's texts to them;
// null until they choose (the apps follow the browser, the service writes English).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('language', 'text').execute();
}
