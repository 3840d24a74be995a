import type { Insertable } from 'kysely';
import type { Db, WriteDb } from '../../db/database.ts';
import type { DestinationQuotesTable } from '../../db/ride-trip-columns.ts';
import { literal, type RideRow } from './rides.repository.ts';
import { ACTIVE_STATUSES } from './rides.schemas.ts';

// Destination changes: the quotes given (one row each) and the change applied to the ride. Each
// write is one conditional statement; the unit that confirms does both or neither.

export type QuoteRow = DestinationQuotesTable;

export async function insertQuote(db: WriteDb, quote: Insertable<DestinationQuotesTable>): Promise<void> {
  await db.insertInto('destination_quotes').values(quote).execute();
}

export function findQuote(db: Db, id: string): Promise<QuoteRow | undefined> {
  return db.selectFrom('destination_quotes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the quote confirmed, if it was not and has not expired: false when another confirmation got there first. */
export async function claimQuote(db: WriteDb, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('destination_quotes').set({ confirmed_at: now }).where('id', '=', id).where('confirmed_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The ride going to its new destination, if it is still ACCEPTED or PICKED and no other change was confirmed meanwhile; the updated row. */
export function applyChange(
  db: WriteDb,
  id: number,
  changesBefore: string,
  change: Pick<RideRow, 'drop_lat' | 'drop_lon' | 'drop_location' | 'drop_plus_code' | 'drop_landmark' | 'distance_km' | 'duration_minutes' | 'fare' | 'destination_changes'>,
): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set(change)
    .where('id', '=', id)
    .where('status', 'in', literal(ACTIVE_STATUSES))
    .where('destination_changes', '=', changesBefore)
    .returningAll()
    .executeTakeFirst();
}
