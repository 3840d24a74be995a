import type { Kysely } from 'kysely';

// Frozen once released. An account's phone number (the safety module): the verified one, and the
// one waiting for its SMS code (only the code's HMAC is kept).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_phones')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    // E.164; null until a number is verified. A new number replaces it only once its code checks out.
    .addColumn('phone', 'text')
    .addColumn('verified_at', 'bigint')
    .addColumn('pending_phone', 'text')
    .addColumn('code_hash', 'text')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('code_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code_sent_at', 'bigint')
    .execute();
}
