import { useEffect, useState } from 'preact/hooks';
import type { Ride, TripCharge, WaitingRule } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { Facts } from './components.tsx';
import { money } from './format.ts';
import { t } from '../i18n/i18n.ts';

// What an open ride adds to its upfront fare, live: the waiting clock from the driver's arrival at the
// pickup, and the tolls and parking the driver adds (each arrives as ride.updated over the channel).

const MINUTE = 60_000;

/** When the driver arrived within 100 m of the pickup, and the charges added so far, as the ride view carries them. */
export const arrivedAtOf = (ride: Ride): string | null => ride.arrivedAt ?? null;
export const chargesOf = (ride: Ride): TripCharge[] => ride.charges ?? [];

/** Started minutes beyond the free ones and what they cost (the fare policy's waiting rule). */
export function waitingCharge(waitedMs: number, rule: WaitingRule): { minutes: number; fare: number } {
  const minutes = Math.max(0, Math.ceil(Math.round((waitedMs / MINUTE - rule.freeMinutes) * 1e6) / 1e6));
  return { minutes, fare: Math.round(minutes * rule.perMinute * 100) / 100 };
}

const clock = (ms: number) => `${Math.floor(ms / MINUTE)}:${String(Math.floor((ms % MINUTE) / 1000)).padStart(2, '0')}`;

/** The waiting rule of the ride's pricing version (public: GET /pricing/versions/{v}). */
function useWaitingRule(ride: Ride): WaitingRule | null {
  const api = useApi();
  const [rule, setRule] = useState<WaitingRule | null>(null);
  useEffect(() => {
    if (ride.pricingVersion === undefined) return;
    let live = true;
    api.pricing
      .version(ride.pricingVersion)
      .then((version) => live && setRule(version.fares[ride.rideType].waiting))
      .catch(() => undefined);
    return () => void (live = false);
  }, [api, ride.pricingVersion, ride.rideType]);
  return rule;
}

/** While the driver waits at the pickup: how long, from their arrival, and what waiting costs once the free minutes are over. */
export function WaitingClock({ ride, arrivedAt }: { ride: Ride; arrivedAt: string }) {
  const rule = useWaitingRule(ride);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const waited = Math.max(0, now - Date.parse(arrivedAt));
  const charge = rule && waitingCharge(waited, rule);
  return (
    <p class="eta" role="timer" data-testid="waiting-clock">
      {t('waiting.clock', { clock: clock(waited) })}
      {rule && charge && ` · ${charge.minutes === 0 ? t('waiting.free', { free: rule.freeMinutes }) : t('waiting.charged', { fare: money(charge.fare), perMinute: money(rule.perMinute), free: rule.freeMinutes })}`}
    </p>
  );
}

/** Tolls and parking the driver added, as they come. */
export function AddedCharges({ charges }: { charges: TripCharge[] }) {
  if (charges.length === 0) return null;
  const total = charges.reduce((sum, charge) => sum + charge.amountInInr, 0);
  return (
    <div class="card stack" aria-label={t('charges.aria')} data-testid="added-charges">
      <h3 class="flush">{t('charges.title')}</h3>
      <Facts items={[...charges.map((charge): [string, string] => [`${charge.kind === 'toll' ? t('fare.toll') : t('fare.parking')}${charge.note ? `: ${charge.note}` : ''}`, money(charge.amountInInr)]), [t('charges.total'), money(total)]]} />
      <p class="muted flush">{t('charges.note')}</p>
    </div>
  );
}
