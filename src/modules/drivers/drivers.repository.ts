import { PostgresAdapter, type Selectable } from 'kysely';
import { MAX_ID, type Db, type DriverProfilesTable, type WriteDb } from '../../db/database.ts';
import type { Page } from '../../platform/pagination.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';

export interface PresenceEntry extends DriverPosition {
  /** False once the driver went offline: the row then only says when they were last seen. */
  online: boolean;
}

/** Most rows per statement: 5 parameters each, far below SQLite's and PostgreSQL's parameter limits. */
const PRESENCE_ROWS_PER_STATEMENT = 256;

/**
 * Saves each driver's latest position (one entry per driver); an older report never overwrites a
 * newer one. Many rows per statement (a thousand drivers a second were a thousand statements), in
 * chunks of powers of two, so a handful of statement texts serve every batch size and the prepared
 * statement cache keeps its other entries.
 */
export async function upsertPresence(db: WriteDb, entries: readonly PresenceEntry[]): Promise<void> {
  for (let start = 0; start < entries.length; ) {
    const size = Math.min(PRESENCE_ROWS_PER_STATEMENT, 2 ** Math.floor(Math.log2(entries.length - start)));
    const rows = entries
      .slice(start, (start += size))
      .map(({ driverId, lat, lon, updatedAt, online }) => ({ driver_id: driverId, lat, lon, updated_at: updatedAt, online: online ? 1 : 0 }));
    await db
      .insertInto('driver_presence')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('driver_id')
          .doUpdateSet((eb) => ({ lat: eb.ref('excluded.lat'), lon: eb.ref('excluded.lon'), updated_at: eb.ref('excluded.updated_at'), online: eb.ref('excluded.online') }))
          .whereRef('driver_presence.updated_at', '<=', 'excluded.updated_at'),
      )
      .execute();
  }
}

export async function driversSeenSince(db: Db, since: number): Promise<number[]> {
  const rows = await db.selectFrom('driver_presence').select('driver_id').where('updated_at', '>=', since).execute();
  return rows.map((row) => row.driver_id);
}

/** Drivers online with a position reported since `since`: what a restarted instance shows again. */
export async function onlineSince(db: Db, since: number): Promise<DriverPosition[]> {
  const rows = await db.selectFrom('driver_presence').selectAll().where('updated_at', '>=', since).where('online', '=', 1).execute();
  return rows.map((row) => ({ driverId: row.driver_id, lat: row.lat, lon: row.lon, updatedAt: row.updated_at }));
}

/** Drivers online with a position reported since `since` (at most a second behind the index: presence is written in batches). */
export async function countOnlineSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('driver_presence')
    .select((eb) => eb.fn.countAll<number>().as('drivers'))
    .where('updated_at', '>=', since)
    .where('online', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.drivers);
}

/** The driver's last stored position, however old. */
export async function lastPosition(db: Db, driverId: number): Promise<DriverPosition | undefined> {
  const row = await db.selectFrom('driver_presence').selectAll().where('driver_id', '=', driverId).executeTakeFirst();
  return row && { driverId: row.driver_id, lat: row.lat, lon: row.lon, updatedAt: row.updated_at };
}

export type ProfileRow = Selectable<DriverProfilesTable>;

export function findProfile(db: Db, driverId: number): Promise<ProfileRow | undefined> {
  return db.selectFrom('driver_profiles').selectAll().where('driver_id', '=', driverId).executeTakeFirst();
}

export function findProfiles(db: Db, driverIds: readonly number[]): Promise<ProfileRow[]> {
  if (driverIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('driver_profiles').selectAll().where('driver_id', 'in', driverIds).execute();
}

/** Creates or replaces the driver's vehicle; a new vehicle (type or number) needs approval again. */
export async function saveProfile(db: WriteDb, row: Omit<ProfileRow, 'approval' | 'approval_reason' | 'approval_changed_at'>): Promise<ProfileRow> {
  return db
    .insertInto('driver_profiles')
    .values(row)
    .onConflict((oc) =>
      oc.column('driver_id').doUpdateSet((eb) => ({
        vehicle_type: eb.ref('excluded.vehicle_type'),
        vehicle_number: eb.ref('excluded.vehicle_number'),
        vehicle_model: eb.ref('excluded.vehicle_model'),
        ac_available: eb.ref('excluded.ac_available'),
        updated_at: eb.ref('excluded.updated_at'),
        approval: eb
          .case()
          .when(eb.or([eb('driver_profiles.vehicle_type', '!=', eb.ref('excluded.vehicle_type')), eb('driver_profiles.vehicle_number', '!=', eb.ref('excluded.vehicle_number'))]))
          .then('pending')
          .else(eb.ref('driver_profiles.approval'))
          .end(),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The profile as it is, locked on PostgreSQL until the transaction ends (SQLite has one writer anyway). */
export function findProfileForUpdate(db: WriteDb, driverId: number): Promise<ProfileRow | undefined> {
  if (driverId > MAX_ID) return Promise.resolve(undefined);
  const query = db.selectFrom('driver_profiles').selectAll().where('driver_id', '=', driverId);
  return (db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query).executeTakeFirst();
}

export function setApproval(db: WriteDb, driverId: number, approval: string, reason: string | null, now: number): Promise<ProfileRow | undefined> {
  return db
    .updateTable('driver_profiles')
    .set({ approval, approval_reason: reason, approval_changed_at: now, updated_at: now })
    .where('driver_id', '=', driverId)
    .returningAll()
    .executeTakeFirst();
}

export function listByApproval(db: Db, approval: string | undefined, page: Page): Promise<ProfileRow[]> {
  let query = db.selectFrom('driver_profiles').selectAll();
  if (approval) query = query.where('approval', '=', approval);
  if (page.beforeId !== undefined) query = query.where('driver_id', '<', page.beforeId);
  return query.orderBy('driver_id', 'desc').limit(page.limit + 1).execute();
}
