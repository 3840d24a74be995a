import type { Insertable, Selectable } from 'kysely';
import { MAX_ID, type Db, type RefreshTokensTable, type SignupOtpsTable, type UsersTable, type WriteDb } from '../../db/database.ts';

export type UserRow = Selectable<UsersTable>;
export type OtpRow = Selectable<SignupOtpsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  if (id > MAX_ID) return undefined;
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUsersByIds(db: Db, ids: readonly number[]): Promise<Pick<UserRow, 'id' | 'name' | 'email' | 'role'>[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('id', 'in', ids).execute();
}

/** Creates the account, or updates name, password and role of the existing one; returns its id. */
export async function upsertUser(db: WriteDb, user: Pick<UserRow, 'email' | 'name' | 'password_hash' | 'role'>, now: number): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ ...user, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({ name: user.name, password_hash: user.password_hash, role: user.role, updated_at: now }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Creates the account unless the e-mail is taken (then undefined): never touches an existing one. */
export async function insertUser(db: WriteDb, user: Pick<UserRow, 'email' | 'name' | 'password_hash' | 'role'>, now: number): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values({ ...user, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Stores a fresh code unless the previous one was sent after `cooldownCutoff`; false when still cooling down. */
export async function saveOtpUnlessCoolingDown(db: WriteDb, otp: Insertable<SignupOtpsTable>, cooldownCutoff: number): Promise<boolean> {
  const row = await db
    .insertInto('signup_otps')
    .values(otp)
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ code_hash: otp.code_hash, expires_at: otp.expires_at, attempts: 0, sent_at: otp.sent_at })
        .where('signup_otps.sent_at', '<=', cooldownCutoff),
    )
    .returning('email')
    .executeTakeFirst();
  return row !== undefined;
}

export function findOtp(db: Db, email: string): Promise<OtpRow | undefined> {
  return db.selectFrom('signup_otps').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Spends one try on a live code before it is compared, so parallel guesses cannot exceed the limit. */
export async function spendOtpTry(db: WriteDb, email: string, maxTries: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('signup_otps')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('email', '=', email)
    .where('attempts', '<', maxTries)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the code if it is still the given one; true for exactly one caller. */
export async function consumeOtp(db: WriteDb, email: string, codeHash: string): Promise<boolean> {
  const result = await db.deleteFrom('signup_otps').where('email', '=', email).where('code_hash', '=', codeHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteOtp(db: WriteDb, email: string, codeHash: string): Promise<void> {
  await db.deleteFrom('signup_otps').where('email', '=', email).where('code_hash', '=', codeHash).execute();
}

export async function insertRefreshToken(db: WriteDb, token: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute();
}

export function findRefreshToken(db: Db, jti: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('jti', '=', jti).executeTakeFirst();
}

/** Marks a live token used; true for exactly one caller. */
export async function markRefreshTokenUsed(db: WriteDb, jti: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('jti', '=', jti)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function revokeFamily(db: WriteDb, familyId: string, now: number): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

export async function revokeAllForUser(db: WriteDb, userId: number, now: number): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
