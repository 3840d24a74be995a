import type { Insertable, Selectable } from 'kysely';
import { MAX_ID, type Db, type NotificationsTable, type WriteDb } from '../../db/database.ts';
import type { Page } from '../../platform/pagination.ts';

export type NotificationRow = Selectable<NotificationsTable>;

/** Most changes notify one or two people: one multi-row insert. */
export function insertNotifications(db: WriteDb, rows: Insertable<NotificationsTable>[]): Promise<NotificationRow[]> {
  return db.insertInto('notifications').values(rows).returningAll().execute();
}

export function listForUser(db: Db, userId: number, page: Page): Promise<NotificationRow[]> {
  let query = db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
}

export async function countUnread(db: Db, userId: number): Promise<number> {
  const { count } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Marks one of the user's notifications read; false when the id is not theirs or does not exist. */
export async function markRead(db: WriteDb, userId: number, id: number): Promise<boolean> {
  if (id > MAX_ID) return false;
  const result = await db
    .updateTable('notifications')
    .set({ read: 1 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markAllRead(db: WriteDb, userId: number): Promise<void> {
  await db.updateTable('notifications').set({ read: 1 }).where('user_id', '=', userId).where('read', '=', 0).execute();
}
