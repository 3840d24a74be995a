import type { Ride } from '../api/types.ts';
import { timeOf } from './format.ts';

/** The stop the ride goes to next (-1: none left). */
export const nextStopOf = (ride: Pick<Ride, 'stops'>): number => ride.stops.findIndex((stop) => stop.reachedAt === null);

/** A ride's stops in order: which were reached (and left) when, and which is next. */
export function StopList({ ride }: { ride: Pick<Ride, 'stops' | 'status'> }) {
  if (ride.stops.length === 0) return null;
  const next = ride.status === 'PICKED' || ride.status === 'ACCEPTED' ? nextStopOf(ride) : -1;
  return (
    <div class="card" aria-label="Stops">
      <h3>Stops</h3>
      <ol class="flush">
        {ride.stops.map((stop, i) => (
          <li key={i} data-reached={stop.reachedAt !== null}>
            {stop.place ?? 'Pinned point'}
            {stop.reachedAt ? ` — reached ${timeOf(stop.reachedAt)}${stop.leftAt ? `, left ${timeOf(stop.leftAt)}` : ''}` : i === next ? ' — next' : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}
