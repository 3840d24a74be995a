import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once released. Drivers' documents (the drivers module): one of each kind per driver, the file
// itself in the database so every instance serves it, with its expiry and an operator's review.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('driver_documents')
    .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
    // licence, registration, insurance or permit.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    // The last day it is valid (YYYY-MM-DD), and the moment after it ends.
    .addColumn('expires_on', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // A registration's first registration date: the vehicle's age.
    .addColumn('registered_on', 'text')
    // pending, approved or rejected.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .addColumn('reviewed_by', 'integer')
    // Set once each: the driver told 7 days before the expiry, and the expiry acted on.
    .addColumn('notice_sent_at', 'bigint')
    .addColumn('expiry_seen_at', 'bigint')
    .addPrimaryKeyConstraint('driver_documents_pk', ['driver_id', 'kind'])
    .execute();
  // The sweep's search: approved documents by expiry.
  await db.schema.createIndex('driver_documents_expiry').on('driver_documents').columns(['status', 'expires_at']).execute();
}
