import type { Kysely } from 'kysely';

// Frozen once released. An audit entry's request id is the service's own; the X-Request-Id a client
// sent is kept in a column of its own. Entries written before kept a client's id as the request id
// when it sent one, and stay as they are: which ones did cannot be told apart.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('client_request_id', 'text').execute();
}
