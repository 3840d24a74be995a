import { useEffect, useState } from 'preact/hooks';
import type { PublicRide, Ride, UpcomingRides } from '../api/types.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { dateTimeOf, km, minutes, money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

// Rides booked ahead (GET /drivers/me/upcoming): the ones the driver could take near where they are,
// and the ones they took. Taking one holds it for them; they must be online 15 minutes before.

function Trip({ ride }: { ride: PublicRide | Ride }) {
  return (
    <span>
      <strong>{dateTimeOf(ride.scheduledAt!)}</strong> · {RIDE_TYPE_LABELS[ride.rideType]} · {money(ride.fare)}
      <br />
      {ride.pickupLocation ?? t('common.pinnedPoint')} → {ride.dropLocation ?? t('common.aPinnedPoint')} ({km(ride.distanceKm)}, {minutes(ride.durationMinutes)})
    </span>
  );
}

export function UpcomingScreen() {
  const api = useApi();
  const [upcoming, setUpcoming] = useState<UpcomingRides | null>(null);
  const load = useAction(async () => setUpcoming(await api.upcoming.list()));
  const take = useAction(async (rideId: number) => {
    await api.upcoming.accept(rideId);
    setUpcoming(await api.upcoming.list());
  });
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="upcoming-title">
      <h2 id="upcoming-title">{t('upcoming.title')}</h2>
      <ErrorNotice message={load.error || take.error} />
      {upcoming && (
        <div class="card stack" aria-label={t('upcoming.takenAria')}>
          <h3 class="flush">{t('upcoming.yours')}</h3>
          {upcoming.taken.length === 0 && <p class="muted flush">{t('upcoming.none')}</p>}
          <ul class="flush">
            {upcoming.taken.map((ride) => (
              <li key={ride.id} data-ride={ride.id}>
                <Trip ride={ride} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {upcoming && (
        <div class="card stack" aria-label={t('upcoming.openAria')}>
          <h3 class="flush">{t('upcoming.near')}</h3>
          {upcoming.open.length === 0 && <Notice>{t('upcoming.noneNear')}</Notice>}
          <ul class="flush stack">
            {upcoming.open.map((ride) => (
              <li key={ride.id} data-ride={ride.id} class="stack">
                <Trip ride={ride} />
                <button type="button" disabled={take.busy} onClick={() => void take.run(ride.id)}>
                  {t('upcoming.take', { id: ride.id })}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
