import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Incident } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf, timeOf } from '../ui/format.ts';
import { STATUS_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { INCIDENT_STATUS_LABELS, PARTY_LABELS } from './ops-labels.ts';


/** The incident desk: open incidents first, each with its ride, both parties, the track since the SOS and the notes. */
export function IncidentsScreen({ changed }: { changed: number }) {
  const api = useApi();
  const [items, setItems] = useState<Incident[] | null>(null);
  const load = useAction(async () => setItems((await api.admin.incidents()).items));
  useEffect(() => void load.run(), [changed]);
  const replace = useCallback((next: Incident) => setItems((list) => list?.map((item) => (item.id === next.id ? next : item)) ?? null), []);
  return (
    <section class="stack" aria-labelledby="incidents-title">
      <h2 id="incidents-title">{t('ops.incidents.title')}</h2>
      <ErrorNotice message={load.error} />
      {items?.length === 0 && <p class="muted">{t('ops.incidents.none')}</p>}
      <ul class="list" aria-label={t('ops.incidents.title')}>
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
  const person = (who: Incident['rider']) => (who ? t('ops.incident.person', { name: who.name, email: who.email, id: who.id }) : '—');
  return (
    <li class="card stack" data-incident={incident.id}>
      <div class="row spread">
        <h3 class="flush">
          {t('ops.incident.title', { id: incident.id, party: PARTY_LABELS[incident.party] })}
        </h3>
        <span>{INCIDENT_STATUS_LABELS[incident.status]}</span>
      </div>
      <span class="muted">
        <a href={`#/rides/${incident.rideId}`}>{t('ops.rideLink', { id: incident.rideId })}</a> ({incident.ride ? STATUS_LABELS[incident.ride.status] : t('ops.incident.unknown')}),{' '}
        {dateTimeOf(incident.createdAt)}
      </span>
      <p class="flush">{t('ops.incident.rider', { person: person(incident.rider) })}</p>
      <p class="flush">{t('ops.incident.driver', { person: person(incident.driver) })}</p>
      <p class="flush">
        {last
          ? t('ops.incident.lastAt', { lat: last.lat.toFixed(5), lon: last.lon.toFixed(5), time: timeOf(last.at), count: incident.track.length })
          : t('ops.incident.noPosition')}
      </p>
      <ol class="flush" aria-label={t('ops.incident.notes')}>
        {incident.notes.map((item) => (
          <li key={item.id}>
            {t('ops.incident.note', { time: timeOf(item.at), author: item.authorId, text: item.text })}
          </li>
        ))}
      </ol>
      {incident.status !== 'resolved' && (
        <div class="row">
          {incident.status === 'open' && (
            <button type="button" class="danger" disabled={ack.busy} onClick={() => void ack.run()}>
              {t('ops.incident.acknowledge')}
            </button>
          )}
          <button type="button" class="secondary" disabled={resolve.busy} onClick={() => void resolve.run()}>
            {t('ops.resolve')}
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
        <Field label={t('ops.incident.noteLabel', { id: incident.id })}>
          <input name="note" maxLength={2000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
        </Field>
        <button type="submit" class="secondary" disabled={addNote.busy || !note.trim()}>
          {t('ops.incident.addNote')}
        </button>
      </form>
      <ErrorNotice message={ack.error || resolve.error || addNote.error} />
    </li>
  );
}
