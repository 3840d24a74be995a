import { sql, type Insertable, type Selectable } from 'kysely';
import { MAX_ID, type Db, type RefreshTokensTable, type SignupOtpsTable, type UsersTable, type WriteDb } from '../../db/database.ts';
import type { Page } from '../../platform/pagination.ts';

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

export function findAccountsByIds(db: Db, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

/**
 * Creates the account, or updates name, password and role of the existing one unless it is blocked
 * (then undefined, and nothing changes); returns its id. The role is the user's own choice.
 */
export async function upsertUser(db: WriteDb, user: Pick<UserRow, 'email' | 'name' | 'password_hash' | 'role'>, now: number): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values({ ...user, role_source: 'signup', created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ name: user.name, password_hash: user.password_hash, role: user.role, role_source: 'signup', updated_at: now })
        .where('users.status', '=', 'active'),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Creates an account an operator made, unless the e-mail is taken (then undefined): never touches an existing one. */
export async function insertUser(db: WriteDb, user: Pick<UserRow, 'email' | 'name' | 'password_hash' | 'role'>, now: number): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values({ ...user, role_source: 'operator', created_at: now, updated_at: now })
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

/** Ends every token of the user issued so far: the next version, stamped so other instances find it. */
export async function raiseTokenVersion(db: WriteDb, userId: number, now: number): Promise<number> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), tokens_changed_at: now }))
    .where('id', '=', userId)
    .returning('token_version')
    .executeTakeFirstOrThrow();
  return row.token_version;
}

/** Token versions raised after `since` (an index on tokens_changed_at keeps this cheap). */
export function tokenVersionsChangedSince(db: Db, since: number): Promise<Array<{ id: number; token_version: number }>> {
  return db.selectFrom('users').select(['id', 'token_version']).where('tokens_changed_at', '>', since).execute();
}

/** An ADMIN by ADMIN_EMAILS whose e-mail is no longer listed becomes a USER; true when this call demoted them. */
export async function demoteAdmin(db: WriteDb, userId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ role: 'USER', updated_at: now })
    .where('id', '=', userId)
    .where('role', '=', 'ADMIN')
    .where('role_source', '=', 'signup')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Accounts that hold ADMIN because their e-mail was in ADMIN_EMAILS at sign-up. */
export function findAdminsBySignup(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('role', '=', 'ADMIN').where('role_source', '=', 'signup').execute();
}

/** The ids of the ADMIN accounts that may sign in: who hears an incident. */
export async function activeAdminIds(db: Db): Promise<number[]> {
  return (await db.selectFrom('users').select('id').where('role', '=', 'ADMIN').where('status', '=', 'active').execute()).map((row) => row.id);
}

/** Whether any ADMIN account may sign in: a fresh install has none until `npm run create-admin` or ADMIN_EMAILS. */
export async function hasActiveAdmin(db: Db): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('role', '=', 'ADMIN').where('status', '=', 'active').limit(1).executeTakeFirst()) !== undefined;
}

export interface AccountFilter {
  role?: string;
  status?: string;
  /** Part of the name or e-mail, any case. */
  q?: string;
}

/** Accounts, newest first, one page (limit + 1 rows, the extra one proving a next page). */
export function listUsers(db: Db, filter: AccountFilter, page: Page): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().orderBy('id', 'desc').limit(page.limit + 1);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  if (filter.role !== undefined) query = query.where('role', '=', filter.role);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.q !== undefined) {
    const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([sql<boolean>`lower(${eb.ref('name')}) like ${pattern} escape '\\'`, sql<boolean>`${eb.ref('email')} like ${pattern} escape '\\'`]));
  }
  return query.execute();
}

/** active → blocked, with the operator's reason; the row when it was active. */
export function blockUser(db: WriteDb, id: number, reason: string, now: number): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ status: 'blocked', status_reason: reason, status_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

/** blocked → active; the row when it was blocked. */
export function unblockUser(db: WriteDb, id: number, now: number): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ status: 'active', status_reason: null, status_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'blocked')
    .returningAll()
    .executeTakeFirst();
}

/** The account's personal data replaced, the row kept (so its id is never handed out again); the row unless already erased. */
export function anonymiseUser(db: WriteDb, id: number, anonymous: Pick<UserRow, 'name' | 'email' | 'password_hash'>, now: number): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...anonymous, status: 'deleted', status_reason: null, status_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'deleted')
    .returningAll()
    .executeTakeFirst();
}

export async function deleteOtpsOf(db: WriteDb, email: string): Promise<void> {
  await db.deleteFrom('signup_otps').where('email', '=', email).execute();
}
