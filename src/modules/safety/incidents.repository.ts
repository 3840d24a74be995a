import { sql, type Insertable, type Selectable } from 'kysely';
import { MAX_ID, type Db, type WriteDb } from '../../db/database.ts';
import type { IncidentNotesTable, IncidentsTable, IncidentTrackTable } from '../../db/safety-tables.ts';
import type { IncidentStatus } from './incidents.schemas.ts';

export type IncidentRow = Selectable<IncidentsTable>;
export type NoteRow = Selectable<IncidentNotesTable>;
export type TrackRow = Selectable<IncidentTrackTable>;

/** The operators' list holds at most this many incidents: every unresolved one comes first. */
export const LIST_LIMIT = 200;
/** The track an incident shows: its latest points (one every few seconds: over an hour). */
export const TRACK_LIMIT = 2000;

/** A new incident, unless the ride has an unresolved one already (then undefined: one alarm per ride until it is resolved). */
export function insertIncident(db: WriteDb, row: Insertable<IncidentsTable>): Promise<IncidentRow | undefined> {
  return db.insertInto('incidents').values(row).onConflict((oc) => oc.column('open_ride_id').doNothing()).returningAll().executeTakeFirst();
}

export function unresolvedOfRide(db: Db, rideId: number): Promise<IncidentRow | undefined> {
  return db.selectFrom('incidents').selectAll().where('open_ride_id', '=', rideId).executeTakeFirst();
}

export function findIncident(db: Db, id: number): Promise<IncidentRow | undefined> {
  if (id > MAX_ID) return Promise.resolve(undefined);
  return db.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Open first, then acknowledged, then resolved; newest first within each. */
export function listIncidents(db: Db, status: IncidentStatus | undefined): Promise<IncidentRow[]> {
  let query = db.selectFrom('incidents').selectAll();
  if (status !== undefined) query = query.where('status', '=', status);
  const rank = sql<number>`case status when 'open' then 0 when 'acknowledged' then 1 else 2 end`;
  return query.orderBy(rank).orderBy('id', 'desc').limit(LIST_LIMIT).execute();
}

export async function insertNote(db: WriteDb, row: Insertable<IncidentNotesTable>): Promise<void> {
  await db.insertInto('incident_notes').values(row).execute();
}

export function notesOf(db: Db, incidentIds: readonly number[]): Promise<NoteRow[]> {
  if (incidentIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('incident_notes').selectAll().where('incident_id', 'in', incidentIds).orderBy('id').execute();
}

/** The latest TRACK_LIMIT points of each of the incidents, oldest first, in one query (a list shows up to LIST_LIMIT). */
export async function tracksOf(db: Db, incidentIds: readonly number[]): Promise<Map<number, TrackRow[]>> {
  const tracks = new Map<number, TrackRow[]>(incidentIds.map((id) => [id, []]));
  if (incidentIds.length === 0) return tracks;
  const ranked = db
    .selectFrom('incident_track')
    .selectAll()
    .select((eb) => eb.fn.agg<number>('row_number').over((over) => over.partitionBy('incident_id').orderBy('at', 'desc')).as('newest'))
    .where('incident_id', 'in', incidentIds)
    .as('ranked');
  const rows = await db.selectFrom(ranked).select(['incident_id', 'at', 'lat', 'lon']).where('newest', '<=', TRACK_LIMIT).orderBy('incident_id').orderBy('at').execute();
  for (const row of rows) tracks.get(row.incident_id)?.push(row);
  return tracks;
}

export async function insertTrackPoints(db: WriteDb, rows: ReadonlyArray<Insertable<IncidentTrackTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('incident_track').values([...rows]).execute();
}

/** open → acknowledged; undefined when the incident is not open. */
export function acknowledge(db: WriteDb, id: number, by: number, now: number): Promise<IncidentRow | undefined> {
  return db.updateTable('incidents').set({ status: 'acknowledged', acknowledged_at: now, acknowledged_by: by }).where('id', '=', id).where('status', '=', 'open').returningAll().executeTakeFirst();
}

/** open or acknowledged → resolved (an unacknowledged one counts as acknowledged by whoever resolves it); undefined when resolved already. */
export function resolve(db: WriteDb, id: number, by: number, now: number): Promise<IncidentRow | undefined> {
  return db
    .updateTable('incidents')
    .set({
      status: 'resolved',
      open_ride_id: null,
      resolved_at: now,
      resolved_by: by,
      acknowledged_at: sql<number>`coalesce(acknowledged_at, ${now})`,
      acknowledged_by: sql<number>`coalesce(acknowledged_by, ${by})`,
    })
    .where('id', '=', id)
    .where('status', '!=', 'resolved')
    .returningAll()
    .executeTakeFirst();
}

/** The incidents whose driver's positions are recorded: every unresolved one with a driver. */
export function tracked(db: Db): Promise<Array<{ id: number; driver_id: number | null }>> {
  return db.selectFrom('incidents').select(['id', 'driver_id']).where('open_ride_id', 'is not', null).where('driver_id', 'is not', null).execute();
}

/** How many are open and acknowledged now, and the acknowledgements since `since`: their count and mean time (ms). */
export async function figures(db: Db, since: number): Promise<{ open: number; acknowledged: number; acks: number; meanAckMs: number | null }> {
  const [counts, acks] = await Promise.all([
    db.selectFrom('incidents').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('status', 'in', ['open', 'acknowledged']).groupBy('status').execute(),
    db
      .selectFrom('incidents')
      .select([(eb) => eb.fn.countAll<number>().as('n'), sql<number | null>`avg(acknowledged_at - created_at)`.as('mean')])
      .where('acknowledged_at', '>=', since)
      .executeTakeFirstOrThrow(),
  ]);
  const count = (status: string) => Number(counts.find((row) => row.status === status)?.n ?? 0);
  return { open: count('open'), acknowledged: count('acknowledged'), acks: Number(acks.n), meanAckMs: acks.mean === null ? null : Number(acks.mean) };
}
