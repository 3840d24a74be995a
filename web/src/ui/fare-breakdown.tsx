import type { FareBreakdown, Ride } from '../api/types.ts';
import { Facts, Notice } from './components.tsx';
import { km, minutes, money } from './format.ts';

// Every part of what a ride costs, as the service lists it on the ride (`fareBreakdown`): the upfront
// quote while the ride is open, tolls and parking the moment the driver adds them (the ride arrives
// again as ride.updated), and what the trip that happened came to once it is completed.

/** The ride's breakdown: the service gives one at completion (null before, and for rides completed before it was kept). */
export const fareBreakdownOf = (ride: Ride): FareBreakdown | null => ride.fareBreakdown ?? null;

const CHARGE_LABELS = { toll: 'Toll', parking: 'Parking' } as const;

export function FareBreakdownCard({ breakdown, done }: { breakdown: FareBreakdown; done: boolean }) {
  const b = breakdown;
  const items: Array<[string, string]> = [
    [b.baseKm > 0 ? `Base (first ${km(b.baseKm)})` : 'Base', money(b.baseFare)],
    [`Distance (${km(b.distanceKm)})`, money(b.distanceFare)],
    [`Time (${minutes(b.durationMinutes)})`, money(b.timeFare)],
  ];
  if (b.minimumApplied) items.push(['Minimum fare', 'applies']);
  if (b.surgeMultiplier !== 1) items.push(['Surge', `× ${b.surgeMultiplier}`]);
  if (b.night) items.push(['Night', `× ${b.nightMultiplier}`]);
  items.push(['Distance and time', money(b.distanceAndTimeFare)]);
  if (b.stops > 0) items.push([`Stops (${b.stops})`, money(b.stopsFare)]);
  const atStops = b.stopWaitingMinutes ?? 0;
  if (b.waitingMinutes > 0) items.push([`Waiting (${minutes(b.waitingMinutes)}${atStops > 0 ? `, ${minutes(atStops)} at stops` : ''})`, money(b.waitingFare)]);
  for (const charge of b.charges) items.push([`${CHARGE_LABELS[charge.kind]}${charge.note ? `: ${charge.note}` : ''}`, money(charge.amountInInr)]);
  items.push([done ? 'Total' : 'Total so far', money(b.fare)]);
  return (
    <div class="card stack" aria-label="Fare breakdown" data-testid="fare-breakdown">
      <h3 class="flush">Fare</h3>
      <Facts items={items} />
      {b.recomputed ? (
        // The reason says from what: the trip that happened, or the route of a destination the rider changed to.
        <Notice kind="warn">{b.recomputeReason ? `Recomputed: ${b.recomputeReason}.` : 'Recomputed from the trip that happened.'}</Notice>
      ) : (
        b.fare !== b.upfrontFare && <p class="muted flush">Upfront fare {money(b.upfrontFare)}; waiting, stops, tolls and parking come on top.</p>
      )}
    </div>
  );
}
