import type { Db, WriteDb } from '../../db/database.ts';
import type { Cell } from './travel-times.model.ts';

// Learned travel times (table travel_time_cells, owned here): one row per (pickup zone, drop zone, hour of week);
// learned detour factors (table detour_cells, owned here): one row per zone trips started in.

export interface CellRow extends Cell {
  pickupZone: string;
  dropZone: string;
  hourOfWeek: number;
}

/** Adds one trip's ratio to its cell; instances add to the same rows, so the values are increments. */
export async function addTrip(db: WriteDb, pickupZone: string, dropZone: string, hourOfWeek: number, ratio: number): Promise<void> {
  await db
    .insertInto('travel_time_cells')
    .values({ pickup_zone: pickupZone, drop_zone: dropZone, hour_of_week: hourOfWeek, trips: 1, ratio_sum: ratio })
    .onConflict((oc) =>
      oc.columns(['pickup_zone', 'drop_zone', 'hour_of_week']).doUpdateSet((eb) => ({
        trips: eb('travel_time_cells.trips', '+', eb.ref('excluded.trips')),
        ratio_sum: eb('travel_time_cells.ratio_sum', '+', eb.ref('excluded.ratio_sum')),
      })),
    )
    .execute();
}

/** Every learned cell (a city's zone pairs × 168 hours at most; read at start and on each refresh). */
export async function allCells(db: Db): Promise<CellRow[]> {
  const rows = await db.selectFrom('travel_time_cells').selectAll().execute();
  return rows.map((row) => ({ pickupZone: row.pickup_zone, dropZone: row.drop_zone, hourOfWeek: Number(row.hour_of_week), trips: Number(row.trips), ratioSum: Number(row.ratio_sum) }));
}

/** Adds one trip's detour ratio to the cell of the zone it started in. */
export async function addDetour(db: WriteDb, zone: string, ratio: number): Promise<void> {
  await db
    .insertInto('detour_cells')
    .values({ zone, trips: 1, ratio_sum: ratio })
    .onConflict((oc) =>
      oc.column('zone').doUpdateSet((eb) => ({
        trips: eb('detour_cells.trips', '+', eb.ref('excluded.trips')),
        ratio_sum: eb('detour_cells.ratio_sum', '+', eb.ref('excluded.ratio_sum')),
      })),
    )
    .execute();
}

/** Every learned detour cell (one per zone trips started in; read at start and on each refresh). */
export async function allDetourCells(db: Db): Promise<Array<Cell & { zone: string }>> {
  const rows = await db.selectFrom('detour_cells').selectAll().execute();
  return rows.map((row) => ({ zone: row.zone, trips: Number(row.trips), ratioSum: Number(row.ratio_sum) }));
}
