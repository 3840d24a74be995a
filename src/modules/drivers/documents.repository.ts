import type { Insertable, Selectable } from 'kysely';
import { MAX_ID, type Db, type WriteDb } from '../../db/database.ts';
import type { DriverDocumentsTable } from '../../db/driver-document-tables.ts';

export type DocumentRow = Omit<Selectable<DriverDocumentsTable>, 'data'>;

const META = ['driver_id', 'kind', 'content_type', 'size', 'expires_on', 'expires_at', 'registered_on', 'status', 'reason', 'uploaded_at', 'reviewed_at', 'reviewed_by', 'notice_sent_at', 'expiry_seen_at'] as const;

/** A new upload replaces the kind's last one, and waits for review again. */
export async function saveDocument(db: WriteDb, row: Insertable<DriverDocumentsTable>): Promise<DocumentRow> {
  const review = { status: 'pending', reason: null, reviewed_at: null, reviewed_by: null, notice_sent_at: null, expiry_seen_at: null };
  const file = { content_type: row.content_type, size: row.size, data: row.data, expires_on: row.expires_on, expires_at: row.expires_at, registered_on: row.registered_on, uploaded_at: row.uploaded_at };
  return db
    .insertInto('driver_documents')
    .values({ ...row, ...review })
    .onConflict((oc) => oc.columns(['driver_id', 'kind']).doUpdateSet({ ...file, ...review }))
    .returning(META)
    .executeTakeFirstOrThrow();
}

// An id above MAX_ID names no driver, and PostgreSQL refuses it as an integer: never sent to a query.
export function documentsOf(db: Db, driverIds: readonly number[]): Promise<DocumentRow[]> {
  const ids = driverIds.filter((id) => id <= MAX_ID);
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('driver_documents').select(META).where('driver_id', 'in', ids).orderBy('driver_id').orderBy('kind').execute();
}

export function findDocument(db: Db, driverId: number, kind: string): Promise<DocumentRow | undefined> {
  if (driverId > MAX_ID) return Promise.resolve(undefined);
  return db.selectFrom('driver_documents').select(META).where('driver_id', '=', driverId).where('kind', '=', kind).executeTakeFirst();
}

export function fileOf(db: Db, driverId: number, kind: string): Promise<{ content_type: string; data: Uint8Array } | undefined> {
  if (driverId > MAX_ID) return Promise.resolve(undefined);
  return db.selectFrom('driver_documents').select(['content_type', 'data']).where('driver_id', '=', driverId).where('kind', '=', kind).executeTakeFirst();
}

export function review(db: WriteDb, driverId: number, kind: string, decision: { status: string; reason: string | null; reviewedBy: number; now: number }): Promise<DocumentRow | undefined> {
  if (driverId > MAX_ID) return Promise.resolve(undefined);
  return db
    .updateTable('driver_documents')
    .set({ status: decision.status, reason: decision.reason, reviewed_at: decision.now, reviewed_by: decision.reviewedBy })
    .where('driver_id', '=', driverId)
    .where('kind', '=', kind)
    .returning(META)
    .executeTakeFirst();
}

/** Claims the approved documents that expire within `noticeMs` and whose driver was not told yet: each is claimed once, whichever instance sweeps. */
export function claimExpiryNotices(db: WriteDb, now: number, noticeMs: number): Promise<Array<Pick<DocumentRow, 'driver_id' | 'kind' | 'expires_on'>>> {
  return db
    .updateTable('driver_documents')
    .set({ notice_sent_at: now })
    .where('status', '=', 'approved')
    .where('notice_sent_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', now + noticeMs)
    .returning(['driver_id', 'kind', 'expires_on'])
    .execute();
}

/** Claims the approved documents that expired since the last sweep, once each. */
export function claimExpired(db: WriteDb, now: number): Promise<Array<Pick<DocumentRow, 'driver_id' | 'kind'>>> {
  return db.updateTable('driver_documents').set({ expiry_seen_at: now }).where('status', '=', 'approved').where('expiry_seen_at', 'is', null).where('expires_at', '<=', now).returning(['driver_id', 'kind']).execute();
}
