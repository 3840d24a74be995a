import type { Kysely } from 'kysely';

// Frozen once released. What an account's life needs beyond sign-up: a status an operator sets
// (active, blocked, deleted = erased; rows are never deleted, so ids are never reused), a token
// version that ends every earlier token when it moves, and where an ADMIN role came from.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  const users = () => db.schema.alterTable('users');
  await users().addColumn('status', 'text', (c) => c.notNull().defaultTo('active')).execute();
  await users().addColumn('status_reason', 'text').execute();
  await users().addColumn('status_changed_at', 'bigint').execute();
  await users().addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await users().addColumn('tokens_changed_at', 'bigint').execute();
  // 'signup': chosen at sign-up (ADMIN only through ADMIN_EMAILS); 'operator': given by an operator.
  await users().addColumn('role_source', 'text', (c) => c.notNull().defaultTo('signup')).execute();
  await db.schema.createIndex('users_tokens_changed_at').on('users').column('tokens_changed_at').execute();
  await db.schema.createIndex('users_status').on('users').columns(['status', 'id']).execute();
}
