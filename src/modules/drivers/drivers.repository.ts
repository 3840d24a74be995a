import type { Db } from '../../db/database.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';

const CHUNK = 500;

/** Saves each driver's latest position; an older report never overwrites a newer one. */
export async function upsertPresence(db: Db, positions: readonly DriverPosition[]): Promise<void> {
  for (let start = 0; start < positions.length; start += CHUNK) {
    await db
      .insertInto('driver_presence')
      .values(positions.slice(start, start + CHUNK).map((p) => ({ driver_id: p.driverId, lat: p.lat, lon: p.lon, updated_at: p.updatedAt })))
      .onConflict((oc) =>
        oc
          .column('driver_id')
          .doUpdateSet((eb) => ({ lat: eb.ref('excluded.lat'), lon: eb.ref('excluded.lon'), updated_at: eb.ref('excluded.updated_at') }))
          .whereRef('driver_presence.updated_at', '<', 'excluded.updated_at'),
      )
      .execute();
  }
}

export async function driversSeenSince(db: Db, since: number): Promise<number[]> {
  const rows = await db.selectFrom('driver_presence').select('driver_id').where('updated_at', '>=', since).execute();
  return rows.map((row) => row.driver_id);
}
