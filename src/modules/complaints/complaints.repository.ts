import type { Insertable, Selectable } from 'kysely';
import { MAX_ID, type ComplaintsTable, type Db, type WriteDb } from '../../db/database.ts';
import type { Page } from '../../platform/pagination.ts';
import type { ComplaintStatus } from './complaints.schemas.ts';

export type ComplaintRow = Selectable<ComplaintsTable>;

export function insertComplaint(db: WriteDb, row: Insertable<ComplaintsTable>): Promise<ComplaintRow> {
  return db.insertInto('complaints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findComplaint(db: Db, id: number): Promise<ComplaintRow | undefined> {
  if (id > MAX_ID) return Promise.resolve(undefined);
  return db.selectFrom('complaints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first, optionally of one status. */
export function listComplaints(db: Db, status: ComplaintStatus | undefined, page: Page): Promise<ComplaintRow[]> {
  let query = db.selectFrom('complaints').selectAll();
  if (status !== undefined) query = query.where('status', '=', status);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
}

/** A ride's complaints, oldest first; only those one user filed when `filedBy` is given. */
export function complaintsOfRide(db: Db, rideId: number, filedBy?: number): Promise<ComplaintRow[]> {
  let query = db.selectFrom('complaints').selectAll().where('ride_id', '=', rideId);
  if (filedBy !== undefined) query = query.where('filed_by', '=', filedBy);
  return query.orderBy('id').execute();
}

/** Forgets what a person wrote in their complaints (an erased account); categories, times and resolutions stay. */
export async function eraseMessagesOf(db: WriteDb, userId: number): Promise<void> {
  await db.updateTable('complaints').set({ message: '' }).where('filed_by', '=', userId).where('message', '!=', '').execute();
}

/** open → resolved; undefined when the complaint is unknown or was resolved already. */
export function resolveComplaint(db: WriteDb, id: number, resolution: string, resolvedBy: number, now: number): Promise<ComplaintRow | undefined> {
  if (id > MAX_ID) return Promise.resolve(undefined);
  return db
    .updateTable('complaints')
    .set({ status: 'resolved', resolution, resolved_by: resolvedBy, resolved_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}
