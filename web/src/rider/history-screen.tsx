import { useEffect, useState } from 'preact/hooks';
import type { Ride } from '../api/types.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { dateTimeOf, money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

/** The rider's rides, newest first, a page at a time. */
export function HistoryScreen() {
  const api = useApi();
  const [rides, setRides] = useState<Ride[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const load = useAction(async (from?: string) => {
    const page = await api.rides.history(from);
    setRides((list) => (from && list ? [...list, ...page.items] : page.items));
    setCursor(page.nextCursor);
  });
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="history-title">
      <h2 id="history-title">{t('history.title')}</h2>
      <ErrorNotice message={load.error} />
      {rides?.length === 0 && <p class="muted">{t('history.none')}</p>}
      <ul class="list">
        {rides?.map((ride) => (
          <li key={ride.id} class="card stack" data-ride={ride.id}>
            <div class="row spread">
              <strong>
                {ride.pickupLocation ?? t('common.pinnedPoint')} → {ride.dropLocation ?? t('common.aPinnedPoint')}
              </strong>
              <strong>{money(ride.fare)}</strong>
            </div>
            <div class="row spread muted">
              <span>
                {dateTimeOf(ride.createdAt)} · {RIDE_TYPE_LABELS[ride.rideType]}
              </span>
              <span>
                {STATUS_LABELS[ride.status]}
                {ride.riderRating !== null && ` · ${t('history.rated', { rating: ride.riderRating })}`}
                {ride.cancellationFee ? ` · ${t('history.fee', { fee: money(ride.cancellationFee) })}` : ''}
              </span>
            </div>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void load.run(cursor)}>
          {t('history.older')}
        </button>
      )}
    </section>
  );
}
