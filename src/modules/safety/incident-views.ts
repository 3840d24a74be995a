import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { RideQueries } from '../rides/ride-queries.service.ts';
import type { Incident, IncidentStatus, ReporterParty } from './incidents.schemas.ts';
import * as repository from './incidents.repository.ts';
import type { Db } from '../../db/database.ts';

export interface IncidentViewDependencies {
  db: Db;
  rides: Pick<RideQueries, 'find'>;
  users: Pick<AuthService, 'findUsers'>;
}

/** Incidents as operators see them: each with its ride, both parties, its track and its notes. */
export async function incidentViews(deps: IncidentViewDependencies, rows: readonly repository.IncidentRow[]): Promise<Incident[]> {
  if (rows.length === 0) return [];
  const rides = new Map(await Promise.all([...new Set(rows.map((row) => row.ride_id))].map(async (id) => [id, await deps.rides.find(id).catch(() => null)] as const)));
  const people = await deps.users.findUsers(rows.flatMap((row) => {
    const ride = rides.get(row.ride_id);
    return ride ? [ride.riderId, ...(ride.driverId === null ? [] : [ride.driverId])] : [];
  }));
  const party = (id: number | null | undefined) => {
    const user = id == null ? undefined : people.get(id);
    return user ? { id: user.id, name: user.name, email: user.email } : null;
  };
  const notes = await repository.notesOf(deps.db, rows.map((row) => row.id));
  const tracks = await repository.tracksOf(deps.db, rows.map((row) => row.id));
  return rows.map((row) => {
    const ride = rides.get(row.ride_id) ?? null;
    return {
      id: row.id,
      status: row.status as IncidentStatus,
      rideId: row.ride_id,
      reporterId: row.reporter_id,
      party: row.party as ReporterParty,
      createdAt: toIso(Number(row.created_at)),
      acknowledgedAt: toIsoOrNull(row.acknowledged_at === null ? null : Number(row.acknowledged_at)),
      acknowledgedBy: row.acknowledged_by,
      resolvedAt: toIsoOrNull(row.resolved_at === null ? null : Number(row.resolved_at)),
      resolvedBy: row.resolved_by,
      ride,
      rider: party(ride?.riderId),
      driver: party(ride?.driverId),
      track: (tracks.get(row.id) ?? []).map((point) => ({ lat: point.lat, lon: point.lon, at: toIso(Number(point.at)) })),
      notes: notes.filter((note) => note.incident_id === row.id).map((note) => ({ id: note.id, authorId: note.author_id, text: note.text, at: toIso(Number(note.created_at)) })),
    };
  });
}

/** What an audit entry keeps of an incident: its state, not the ride or the notes' words. */
export const incidentState = ({ status, acknowledgedAt, acknowledgedBy, resolvedAt, resolvedBy }: Incident) => ({ status, acknowledgedAt, acknowledgedBy, resolvedAt, resolvedBy });
