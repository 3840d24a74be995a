import { useEffect, useState } from 'preact/hooks';
import type { EarningDay, EarningRide, Earnings } from '../api/types.ts';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { dayOf, money, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import type { VNode } from 'preact';
import { rich, t } from '../i18n/i18n.ts';

// The driver's earnings as the service reckons them (GET /drivers/me/earnings): today's and this
// week's, each ride with its fare and the driver's part of it, days in the service's time zone.

/** Fares, the platform's fee, tolls and penalties behind a driver's net. */
function Breakdown({ sums }: { sums: Omit<EarningDay, 'date'> }) {
  return (
    <Facts
      items={[
        [t('earnings.fares'), money(sums.faresInInr)],
        [t('earnings.platformFee'), `− ${money(sums.platformFeeInInr)}`],
        ...(sums.tollsAndParkingInInr > 0 ? ([[t('earnings.tolls'), money(sums.tollsAndParkingInInr)]] as Array<[string, string]>) : []),
        ...(sums.penaltiesInInr > 0 ? ([[t('earnings.penalties'), `− ${money(sums.penaltiesInInr)}`]] as Array<[string, string]>) : []),
        [t('earnings.yours'), money(sums.netInInr)],
      ]}
    />
  );
}

function RideLine({ ride }: { ride: EarningRide }) {
  return (
    <li data-ride={ride.rideId}>
      {rich<VNode>('earnings.line', { time: timeOf(ride.completedAt), type: RIDE_TYPE_LABELS[ride.rideType], fare: money(ride.fareInInr), amount: money(ride.driverAmountInInr), b: (chunks) => <strong>{chunks}</strong> })}
      {ride.tollsAndParkingInInr > 0 && ` ${t('earnings.withTolls', { tolls: money(ride.tollsAndParkingInInr) })}`}
    </li>
  );
}

export function EarningsScreen() {
  const api = useApi();
  const [earnings, setEarnings] = useState<Earnings | null>(null);
  const load = useAction(async () => setEarnings(await api.drivers.earnings()));
  useEffect(() => void load.run(), [api]);
  const today = earnings?.days.find((day) => day.date === earnings.today);
  const daysWithRides = earnings?.days.filter((day) => day.rides > 0 || day.penaltiesInInr > 0).reverse() ?? [];
  return (
    <section class="stack" aria-labelledby="earnings-title">
      <h2 id="earnings-title">{t('earnings.title')}</h2>
      <ErrorNotice message={load.error} />
      {earnings && today && (
        <div class="card stack" aria-label={t('earnings.today')}>
          <h3 class="flush">{t('earnings.today')}</h3>
          <p class="big flush" data-testid="earnings-total">
            {money(today.netInInr)}
          </p>
          <p class="muted flush">
            {t('earnings.todayCount', { count: today.rides })}
          </p>
          {today.rides > 0 && <Breakdown sums={today} />}
        </div>
      )}
      {earnings && (
        <div class="card stack" aria-label={t('earnings.week')}>
          <h3 class="flush">{t('earnings.week')}</h3>
          <p class="big flush" data-testid="earnings-week">
            {money(earnings.totals.netInInr)}
          </p>
          <p class="muted flush">
            {t('earnings.since', { count: earnings.totals.rides, day: dayOf(earnings.from) })}
          </p>
          <Breakdown sums={earnings.totals} />
        </div>
      )}
      {daysWithRides.map((day) => (
        <div class="card stack" key={day.date} data-day={day.date}>
          <h3 class="flush">
            {day.date === earnings!.today ? t('earnings.today') : dayOf(day.date)} · {money(day.netInInr)}
          </h3>
          <ul class="flush">
            {earnings!.rides.filter((ride) => ride.date === day.date).map((ride) => (
              <RideLine key={ride.rideId} ride={ride} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
