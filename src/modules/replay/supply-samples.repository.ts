import type { Db, WriteDb } from '../../db/database.ts';

export interface SupplySampleRow {
  at: number;
  online: number;
  busy: number;
  drivers: string;
}

/** Stores the slot's sample unless another instance did first; true when this one was stored. */
export async function insertSample(db: WriteDb, sample: SupplySampleRow): Promise<boolean> {
  const result = await db.insertInto('supply_samples').values(sample).onConflict((c) => c.column('at').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Whether the slot starting at `at` has its sample. */
export async function sampleTaken(db: Db, at: number): Promise<boolean> {
  return (await db.selectFrom('supply_samples').select('at').where('at', '=', at).executeTakeFirst()) !== undefined;
}

/** Samples of slots that began in [from, to), oldest first, without their drivers. */
export function sampleCounts(db: Db, from: number, to: number, limit: number): Promise<Array<Omit<SupplySampleRow, 'drivers'>>> {
  return db.selectFrom('supply_samples').select(['at', 'online', 'busy']).where('at', '>=', from).where('at', '<', to).orderBy('at').limit(limit).execute();
}

/** Samples of slots that began in [from, to), oldest first, with their drivers. */
export function samplesBetween(db: Db, from: number, to: number): Promise<SupplySampleRow[]> {
  return db.selectFrom('supply_samples').selectAll().where('at', '>=', from).where('at', '<', to).orderBy('at').execute();
}

export async function deleteSamplesBefore(db: WriteDb, before: number): Promise<number> {
  const result = await db.deleteFrom('supply_samples').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
