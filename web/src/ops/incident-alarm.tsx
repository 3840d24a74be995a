import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Incident } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { useChannel } from '../realtime/use-channel.ts';
import { useApi } from '../ui/app-context.tsx';
import { PARTY_LABELS } from './ops-labels.ts';

/** How often the alarm sounds while an incident is open. */
const BEEP_EVERY_MS = 4000;

/** A short tone made in the page (no audio file, nothing the Content-Security-Policy has to admit). */
function beep(context: AudioContext): void {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = 880;
  gain.gain.value = 0.2;
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.4);
}

/**
 * The console's alarm: the open incidents (read at start and on every resync, kept current by
 * `incident.created` and `incident.updated`), a banner and a tone every few seconds until an
 * operator acknowledges each, from any console.
 */
export function useOpenIncidents(): { open: Incident[]; changed: number } {
  const api = useApi();
  const [open, setOpen] = useState<Incident[]>([]);
  const [changed, setChanged] = useState(0);
  const reload = useCallback(() => void api.admin.incidents('open').then(({ items }) => setOpen(items)).catch(() => undefined), [api]);
  useEffect(reload, [reload]);
  useChannel(api.client, {
    message: (message) => {
      if (message.type !== 'incident.created' && message.type !== 'incident.updated') return;
      const incident = message.data;
      setOpen((list) => [...(incident.status === 'open' ? [incident] : []), ...list.filter((item) => item.id !== incident.id)]);
      setChanged((count) => count + 1);
    },
    resync: reload,
  });
  return { open, changed };
}

export function IncidentAlarm({ open }: { open: Incident[] }) {
  const audio = useRef<AudioContext | null>(null);
  useEffect(() => {
    if (open.length === 0) return;
    audio.current ??= new AudioContext();
    const sound = () => {
      if (audio.current?.state === 'running') beep(audio.current);
      else void audio.current?.resume().catch(() => undefined);
    };
    sound();
    const timer = setInterval(sound, BEEP_EVERY_MS);
    return () => clearInterval(timer);
  }, [open.length]);
  if (open.length === 0) return null;
  return (
    <div class="notice error alarm" role="alert">
      <strong>{t('ops.alarm.waiting', { count: open.length })}</strong>{' '}
      {open.map((incident) => (
        <a key={incident.id} href="#/incidents">
          {incident.rider
            ? t('ops.alarm.rideOf', { id: incident.rideId, party: PARTY_LABELS[incident.party], name: incident.rider.name })
            : t('ops.alarm.ride', { id: incident.rideId, party: PARTY_LABELS[incident.party] })}
        </a>
      ))}
    </div>
  );
}
