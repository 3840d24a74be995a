import type { Selectable } from 'kysely';
import type { Db, WriteDb } from '../../db/database.ts';
import type { PushSubscriptionsTable } from '../../db/push-tables.ts';

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/**
 * Saves a browser's subscription for the user: an endpoint already kept (the same browser again, or
 * signed in as another account) is taken over with its new keys.
 */
export async function upsert(db: WriteDb, row: Omit<PushSubscriptionRow, 'id'>): Promise<PushSubscriptionRow> {
  return db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth, created_at: row.created_at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's subscriptions, newest first. */
export function ofUser(db: Db, userId: number): Promise<PushSubscriptionRow[]> {
  return db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Keeps the user's `keep` newest subscriptions and deletes the rest; the number left. */
export async function keepNewest(db: WriteDb, userId: number, keep: number): Promise<number> {
  const rows = await ofUser(db, userId);
  const extra = rows.slice(keep).map((row) => row.id);
  if (extra.length > 0) await db.deleteFrom('push_subscriptions').where('id', 'in', extra).execute();
  return Math.min(rows.length, keep);
}

/** True when the user had a subscription at this endpoint. */
export async function removeEndpoint(db: WriteDb, userId: number, endpoint: string): Promise<boolean> {
  const result = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A subscription the push service said is gone; its keys must match, so a newer subscription at the endpoint stays. */
export async function prune(db: WriteDb, row: Pick<PushSubscriptionRow, 'id' | 'p256dh'>): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', row.id).where('p256dh', '=', row.p256dh).execute();
}

export async function removeAllOf(db: WriteDb, userId: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
}
