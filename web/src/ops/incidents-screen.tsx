import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Incident } from '../api/types.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';

const STATUS_LABELS: Record<Incident['status'], string> = { open: 'Open: nobody has it yet', acknowledged: 'Acknowledged', resolved: 'Resolved' };

/** The incident desk: open incidents first, each with its ride, both parties, the track since the SOS and the notes. */
export function IncidentsScreen({ changed }: { changed: number }) {
  const api = useApi();
  const [items, setItems] = useState<Incident[] | null>(null);
  const load = useAction(async () => setItems((await api.admin.incidents()).items));
  useEffect(() => void load.run(), [changed]);
  const replace = useCallback((next: Incident) => setItems((list) => list?.map((item) => (item.id === next.id ? next : item)) ?? null), []);
  return (
    <section class="stack" aria-labelledby="incidents-title">
      <h2 id="incidents-title">Incidents</h2>
      <ErrorNotice message={load.error} />
      {items?.length === 0 && <p class="muted">No incident.</p>}
      <ul class="list" aria-label="Incidents">
        {items?.map((incident) => <IncidentItem key={incident.id} incident={incident} onChange={replace} />)}
      </ul>
    </section>
  );
}

function IncidentItem({ incident, onChange }: { incident: Incident; onChange: (incident: Incident) => void }) {
  const api = useApi();
  const [note, setNote] = useState('');
  const ack = useAction(async () => onChange(await api.admin.acknowledgeIncident(incident.id)));
  const resolve = useAction(async () => onChange(await api.admin.resolveIncident(incident.id)));
  const addNote = useAction(async () => {
    onChange(await api.admin.noteIncident(incident.id, note.trim()));
    setNote('');
  });
  const last = incident.track.at(-1) ?? (incident.ride?.driverLat != null && incident.ride.driverLon != null ? { lat: incident.ride.driverLat, lon: incident.ride.driverLon, at: incident.ride.driverLocationUpdatedAt ?? incident.createdAt } : null);
  const person = (who: Incident['rider']) => (who ? `${who.name} (${who.email}, user ${who.id})` : '—');
  return (
    <li class="card stack" data-incident={incident.id}>
      <div class="row spread">
        <h3 class="flush">
          Incident {incident.id}: SOS by the {incident.party}
        </h3>
        <span>{STATUS_LABELS[incident.status]}</span>
      </div>
      <span class="muted">
        <a href={`#/rides/${incident.rideId}`}>Ride {incident.rideId}</a> ({incident.ride?.status ?? 'unknown'}), {dateTimeOf(incident.createdAt)}
      </span>
      <p class="flush">Rider: {person(incident.rider)}</p>
      <p class="flush">Driver: {person(incident.driver)}</p>
      <p class="flush">
        {last ? `Driver last at ${last.lat.toFixed(5)}, ${last.lon.toFixed(5)} (${timeOf(last.at)}); ${incident.track.length} points since the SOS` : 'No position since the SOS'}
      </p>
      <ol class="flush" aria-label="Notes">
        {incident.notes.map((item) => (
          <li key={item.id}>
            {timeOf(item.at)}, user {item.authorId}: {item.text}
          </li>
        ))}
      </ol>
      {incident.status !== 'resolved' && (
        <div class="row">
          {incident.status === 'open' && (
            <button type="button" class="danger" disabled={ack.busy} onClick={() => void ack.run()}>
              Acknowledge
            </button>
          )}
          <button type="button" class="secondary" disabled={resolve.busy} onClick={() => void resolve.run()}>
            Resolve
          </button>
        </div>
      )}
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim()) void addNote.run();
        }}
      >
        <Field label={`Note on incident ${incident.id}`}>
          <input name="note" maxLength={2000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
        </Field>
        <button type="submit" class="secondary" disabled={addNote.busy || !note.trim()}>
          Add note
        </button>
      </form>
      <ErrorNotice message={ack.error || resolve.error || addNote.error} />
    </li>
  );
}
