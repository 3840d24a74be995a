import type { Ride } from '../api/types.ts';
import { timeOf } from './format.ts';
import { t } from '../i18n/i18n.ts';

/** The stop the ride goes to next (-1: none left). */
export const nextStopOf = (ride: Pick<Ride, 'stops'>): number => ride.stops.findIndex((stop) => stop.reachedAt === null);

/** A ride's stops in order: which were reached (and left) when, and which is next. */
export function StopList({ ride }: { ride: Pick<Ride, 'stops' | 'status'> }) {
  if (ride.stops.length === 0) return null;
  const next = ride.status === 'PICKED' || ride.status === 'ACCEPTED' ? nextStopOf(ride) : -1;
  return (
    <div class="card" aria-label={t('stops.title')}>
      <h3>{t('stops.title')}</h3>
      <ol class="flush">
        {ride.stops.map((stop, i) => (
          <li key={i} data-reached={stop.reachedAt !== null}>
            {stop.place ?? t('common.pinnedPoint')}
            {stop.reachedAt ? ` — ${stop.leftAt ? t('stops.reachedLeft', { time: timeOf(stop.reachedAt), left: timeOf(stop.leftAt) }) : t('stops.reached', { time: timeOf(stop.reachedAt) })}` : i === next ? ` — ${t('stops.next')}` : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}
