import type { FareBreakdown, Ride } from '../api/types.ts';
import { Facts, Notice } from './components.tsx';
import { km, minutes, money } from './format.ts';
import { t } from '../i18n/i18n.ts';

// Every part of what a ride costs, as the service lists it on the ride (`fareBreakdown`): the upfront
// quote while the ride is open, tolls and parking the moment the driver adds them (the ride arrives
// again as ride.updated), and what the trip that happened came to once it is completed.

/** The ride's breakdown: the service gives one at completion (null before, and for rides completed before it was kept). */
export const fareBreakdownOf = (ride: Ride): FareBreakdown | null => ride.fareBreakdown ?? null;

const CHARGE_LABELS = { toll: 'fare.toll', parking: 'fare.parking' } as const;

export function FareBreakdownCard({ breakdown, done }: { breakdown: FareBreakdown; done: boolean }) {
  const b = breakdown;
  const items: Array<[string, string]> = [
    [b.baseKm > 0 ? t('fare.baseFirst', { km: km(b.baseKm) }) : t('fare.base'), money(b.baseFare)],
    [t('fare.distanceOf', { km: km(b.distanceKm) }), money(b.distanceFare)],
    [t('fare.timeOf', { minutes: minutes(b.durationMinutes) }), money(b.timeFare)],
  ];
  if (b.minimumApplied) items.push([t('fare.minimum'), t('fare.applies')]);
  if (b.surgeMultiplier !== 1) items.push([t('fare.surge'), `× ${b.surgeMultiplier}`]);
  if (b.night) items.push([t('fare.night'), `× ${b.nightMultiplier}`]);
  items.push([t('fare.distanceAndTime'), money(b.distanceAndTimeFare)]);
  if (b.stops > 0) items.push([t('fare.stopsOf', { count: b.stops }), money(b.stopsFare)]);
  const atStops = b.stopWaitingMinutes ?? 0;
  if (b.waitingMinutes > 0) items.push([atStops > 0 ? t('fare.waitingStops', { minutes: minutes(b.waitingMinutes), atStops: minutes(atStops) }) : t('fare.waiting', { minutes: minutes(b.waitingMinutes) }), money(b.waitingFare)]);
  for (const charge of b.charges) items.push([`${t(CHARGE_LABELS[charge.kind])}${charge.note ? `: ${charge.note}` : ''}`, money(charge.amountInInr)]);
  items.push([done ? t('fare.total') : t('fare.totalSoFar'), money(b.fare)]);
  return (
    <div class="card stack" aria-label={t('fare.aria')} data-testid="fare-breakdown">
      <h3 class="flush">{t('fare.title')}</h3>
      <Facts items={items} />
      {b.recomputed ? (
        // The reason says from what: the trip that happened, or the route of a destination the rider changed to.
        <Notice kind="warn">{b.recomputeReason ? t('fare.recomputed', { reason: b.recomputeReason }) : t('fare.recomputedTrip')}</Notice>
      ) : (
        b.fare !== b.upfrontFare && <p class="muted flush">{t('fare.upfront', { fare: money(b.upfrontFare) })}</p>
      )}
    </div>
  );
}
