import { useCallback, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import type { SharedTrip } from '../api/types.ts';
import { MapView, type MapMarker } from '../map/map-view.tsx';
import { useApi } from '../ui/app-context.tsx';
import { Facts, Notice } from '../ui/components.tsx';
import { timeOf } from '../ui/format.ts';
import { usePolling } from '../ui/use-polling.ts';

/** How often the page asks where the driver is: as often as a rider's app hears it is not needed here. */
const POLL_MS = 5000;

/** What the page says of the trip, in one line. */
function headline(trip: SharedTrip): string {
  const driver = trip.driverFirstName ?? 'The driver';
  const eta = trip.etaMinutes === null ? '' : ` — about ${trip.etaMinutes} min`;
  switch (trip.status) {
    case 'ACCEPTED':
      return `${driver} is on the way to the pickup${eta}`;
    case 'PICKED':
      return `On the trip with ${driver}${eta === '' ? '' : `${eta} to the drop-off`}`;
    case 'COMPLETED':
      return 'The trip has ended: arrived';
    case 'CANCELLED':
      return 'The trip was cancelled';
    default:
      return 'Waiting for a driver';
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

  const markers: MapMarker[] = trip?.position ? [{ id: 'driver', kind: 'driver', label: 'The driver', lat: trip.position.lat, lon: trip.position.lon }] : [];
  return (
    <div class="shell">
      <header class="top">
        <h1>Shared trip</h1>
      </header>
      <main class="share">
        {ended ? (
          <Notice>This link has ended: the trip finished more than 30 minutes ago, or the rider stopped sharing it.</Notice>
        ) : trip === null ? (
          polling.error ? <Notice kind="error">{polling.error}</Notice> : <Notice>Loading the trip…</Notice>
        ) : (
          <>
            <p class="share-headline" role="status">{headline(trip)}</p>
            <Facts
              items={[
                ['Driver', trip.driverFirstName ?? '—'],
                ['Vehicle', [trip.vehicleNumber, trip.vehicleModel].filter(Boolean).join(', ') || '—'],
                ...(trip.position ? ([['Position at', timeOf(trip.position.at)]] as Array<[string, string]>) : []),
              ]}
            />
            {polling.error && <Notice kind="warn">Could not refresh: {polling.error}</Notice>}
            <MapView label="Where the driver is" markers={markers} />
          </>
        )}
      </main>
    </div>
  );
}
