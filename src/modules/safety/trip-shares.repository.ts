import type { Insertable, Selectable } from 'kysely';
import type { Db, WriteDb } from '../../db/database.ts';
import type { TripSharesTable } from '../../db/safety-tables.ts';

export type TripShareRow = Selectable<TripSharesTable>;

export async function insertShare(db: WriteDb, row: Insertable<TripSharesTable>): Promise<void> {
  await db.insertInto('trip_shares').values(row).execute();
}

export function findByHash(db: Db, tokenHash: string): Promise<TripShareRow | undefined> {
  return db.selectFrom('trip_shares').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Ends every link of the ride that still works; how many it ended. */
export async function revokeAll(db: WriteDb, rideId: number, now: number): Promise<number> {
  const result = await db.updateTable('trip_shares').set({ revoked_at: now }).where('ride_id', '=', rideId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
