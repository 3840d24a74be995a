import { useEffect, useState } from 'preact/hooks';
import type { EarningDay, EarningRide, Earnings } from '../api/types.ts';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { money, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

// The driver's earnings as the service reckons them (GET /drivers/me/earnings): today's and this
// week's, each ride with its fare and the driver's part of it, days in the service's time zone.

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;
const dayName = (date: string) => new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** Fares, the platform's fee, tolls and penalties behind a driver's net. */
function Breakdown({ sums }: { sums: Omit<EarningDay, 'date'> }) {
  return (
    <Facts
      items={[
        ['Fares', money(sums.faresInInr)],
        ['Platform fee', `− ${money(sums.platformFeeInInr)}`],
        ...(sums.tollsAndParkingInInr > 0 ? ([['Tolls and parking (all yours)', money(sums.tollsAndParkingInInr)]] as Array<[string, string]>) : []),
        ...(sums.penaltiesInInr > 0 ? ([['Cancellation penalties', `− ${money(sums.penaltiesInInr)}`]] as Array<[string, string]>) : []),
        ['Yours', money(sums.netInInr)],
      ]}
    />
  );
}

function RideLine({ ride }: { ride: EarningRide }) {
  return (
    <li data-ride={ride.rideId}>
      {timeOf(ride.completedAt)} · {RIDE_TYPE_LABELS[ride.rideType]} · fare {money(ride.fareInInr)} → <strong>{money(ride.driverAmountInInr)}</strong> yours
      {ride.tollsAndParkingInInr > 0 && ` (with ${money(ride.tollsAndParkingInInr)} tolls and parking)`}
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
      <h2 id="earnings-title">Earnings</h2>
      <ErrorNotice message={load.error} />
      {earnings && today && (
        <div class="card stack" aria-label="Today">
          <h3 class="flush">Today</h3>
          <p class="big flush" data-testid="earnings-total">
            {money(today.netInInr)}
          </p>
          <p class="muted flush">
            {plural(today.rides, 'ride')} completed today.
          </p>
          {today.rides > 0 && <Breakdown sums={today} />}
        </div>
      )}
      {earnings && (
        <div class="card stack" aria-label="This week">
          <h3 class="flush">This week</h3>
          <p class="big flush" data-testid="earnings-week">
            {money(earnings.totals.netInInr)}
          </p>
          <p class="muted flush">
            {plural(earnings.totals.rides, 'ride')} since {dayName(earnings.from)}.
          </p>
          <Breakdown sums={earnings.totals} />
        </div>
      )}
      {daysWithRides.map((day) => (
        <div class="card stack" key={day.date} data-day={day.date}>
          <h3 class="flush">
            {day.date === earnings!.today ? 'Today' : dayName(day.date)} · {money(day.netInInr)}
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
