import type { Selectable } from 'kysely';
import type { Db, WriteDb } from '../../db/database.ts';
import type { AccountPhonesTable } from '../../db/safety-tables.ts';

export type AccountPhoneRow = Selectable<AccountPhonesTable>;

export function findPhone(db: Db, userId: number): Promise<AccountPhoneRow | undefined> {
  return db.selectFrom('account_phones').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The verified numbers of these accounts (those without one are left out). */
export async function verifiedPhones(db: Db, userIds: readonly number[]): Promise<Map<number, string>> {
  const rows = await db.selectFrom('account_phones').select(['user_id', 'phone']).where('user_id', 'in', userIds).where('phone', 'is not', null).execute();
  return new Map(rows.map((row) => [row.user_id, row.phone!]));
}

/** A new code for a number, unless the last one was sent after `cooldownCutoff`; true when it was saved. */
export async function saveCodeUnlessCoolingDown(
  db: WriteDb,
  code: { userId: number; phone: string; codeHash: string; expiresAt: number; sentAt: number },
  cooldownCutoff: number,
): Promise<boolean> {
  const pending = { pending_phone: code.phone, code_hash: code.codeHash, code_expires_at: code.expiresAt, code_attempts: 0, code_sent_at: code.sentAt };
  const row = await db
    .insertInto('account_phones')
    .values({ user_id: code.userId, ...pending })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet(pending)
        .where((eb) => eb.or([eb('account_phones.code_sent_at', 'is', null), eb('account_phones.code_sent_at', '<=', cooldownCutoff)])),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Spends one try on a live code before it is compared, so parallel guesses cannot exceed the limit. */
export async function spendCodeTry(db: WriteDb, userId: number, maxTries: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('account_phones')
    .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('code_attempts', '<', maxTries)
    .where('code_expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The pending number becomes the account's, if its code is still the given one; true for exactly one caller. */
export async function confirmPending(db: WriteDb, userId: number, codeHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('account_phones')
    .set((eb) => ({ phone: eb.ref('pending_phone'), verified_at: now, pending_phone: null, code_hash: null, code_expires_at: null, code_attempts: 0 }))
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Forgets a code nobody received (the SMS provider failed), so the user may ask again at once. */
export async function dropCode(db: WriteDb, userId: number, codeHash: string): Promise<void> {
  await db.updateTable('account_phones').set({ pending_phone: null, code_hash: null, code_expires_at: null, code_sent_at: null }).where('user_id', '=', userId).where('code_hash', '=', codeHash).execute();
}

export async function erase(db: WriteDb, userId: number): Promise<void> {
  await db.deleteFrom('account_phones').where('user_id', '=', userId).execute();
}
