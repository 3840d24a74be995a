import { useCallback, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import type { SharedTrip } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { MapView, type MapMarker } from '../map/map-view.tsx';
import { useApi } from '../ui/app-context.tsx';
import { Facts, Notice } from '../ui/components.tsx';
import { minutes, timeOf } from '../ui/format.ts';
import { usePolling } from '../ui/use-polling.ts';

/** How often the page asks where the driver is: as often as a rider's app hears it is not needed here. */
const POLL_MS = 5000;

/** What the page says of the trip, in one line. */
function headline(trip: SharedTrip): string {
  const driver = trip.driverFirstName ?? t('sharePage.theDriver');
  const eta = trip.etaMinutes === null ? '' : minutes(trip.etaMinutes);
  switch (trip.status) {
    case 'ACCEPTED':
      return t(trip.etaMinutes === null ? 'sharePage.coming' : 'sharePage.comingIn', { driver, minutes: eta });
    case 'PICKED':
      return t(trip.etaMinutes === null ? 'sharePage.onTrip' : 'sharePage.onTripFor', { driver, minutes: eta });
    case 'COMPLETED':
      return t('sharePage.ended');
    case 'CANCELLED':
      return t('sharePage.cancelled');
    default:
      return t('sharePage.waiting');
  }
}

/**
 * The public page of a trip-sharing link (/share/<token>): the driver, the vehicle and where they
 * are, polled from /share/<token>.json; no account, no token of any user.
 */
export function SharePage({ token }: { token: string }) {
  const api = useApi();
  const [trip, setTrip] = useState<SharedTrip | null>(null);
  const [ended, setEnded] = useState(false);
  const load = useCallback(async () => {
    if (ended) return;
    try {
      setTrip(await api.safety.shared(token));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) setEnded(true);
      else throw error;
    }
  }, [api, token, ended]);
  const polling = usePolling(load, POLL_MS);

  const markers: MapMarker[] = trip?.position ? [{ id: 'driver', kind: 'driver', label: t('sharePage.theDriver'), lat: trip.position.lat, lon: trip.position.lon }] : [];
  return (
    <div class="shell">
      <header class="top">
        <h1>{t('sharePage.title')}</h1>
      </header>
      <main class="share">
        {ended ? (
          <Notice>{t('sharePage.linkEnded')}</Notice>
        ) : trip === null ? (
          polling.error ? <Notice kind="error">{polling.error}</Notice> : <Notice>{t('sharePage.loading')}</Notice>
        ) : (
          <>
            <p class="share-headline" role="status">{headline(trip)}</p>
            <Facts
              items={[
                [t('sharePage.driver'), trip.driverFirstName ?? '—'],
                [t('sharePage.vehicle'), [trip.vehicleNumber, trip.vehicleModel].filter(Boolean).join(', ') || '—'],
                ...(trip.position ? ([[t('sharePage.positionAt'), timeOf(trip.position.at)]] as Array<[string, string]>) : []),
              ]}
            />
            {polling.error && <Notice kind="warn">{t('sharePage.refreshFailed', { error: polling.error })}</Notice>}
            <MapView label={t('sharePage.mapLabel')} markers={markers} />
          </>
        )}
      </main>
    </div>
  );
}
