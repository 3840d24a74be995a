import { sql, type Kysely } from 'kysely';

// Frozen once released. When a user asked for their account to be deleted, so operators see how
// long each request has waited. Requests made before this column existed get their settings' last
// change, the nearest time known.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('delete_account_requested_at', 'bigint').execute();
  await sql`update user_settings set delete_account_requested_at = updated_at where delete_account_requested = 1`.execute(db);
}
