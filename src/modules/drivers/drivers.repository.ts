import type { Db } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';

// Parameters in statement order: driver_id, lat, lon, updated_at.
const upsertOne = prepared((db) =>
  db
    .insertInto('driver_presence')
    .values({ driver_id: 0, lat: 0, lon: 0, updated_at: 0 })
    .onConflict((oc) =>
      oc
        .column('driver_id')
        .doUpdateSet((eb) => ({ lat: eb.ref('excluded.lat'), lon: eb.ref('excluded.lon'), updated_at: eb.ref('excluded.updated_at') }))
        .whereRef('driver_presence.updated_at', '<', 'excluded.updated_at'),
    ),
);

/** Saves each driver's latest position; an older report never overwrites a newer one. */
export async function upsertPresence(db: Db, positions: readonly DriverPosition[]): Promise<void> {
  for (const p of positions) await upsertOne(db, [p.driverId, p.lat, p.lon, p.updatedAt]);
}

export async function driversSeenSince(db: Db, since: number): Promise<number[]> {
  const rows = await db.selectFrom('driver_presence').select('driver_id').where('updated_at', '>=', since).execute();
  return rows.map((row) => row.driver_id);
}
