import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Point } from '../../../src/contract/types.ts';
import { livePosition } from '../../../src/contract/rules.ts';
import { ApiError } from '../api/client.ts';
import type { DriverProfile, Offer, Ride } from '../api/types.ts';
import { useChannel } from '../realtime/use-channel.ts';
import { useApi } from '../ui/app-context.tsx';
import { keepRide, keptRide } from '../ui/last-ride.ts';
import { useNotifications } from '../ui/notifications.tsx';
import { go } from '../ui/router.ts';
import { usePosition } from './use-position.ts';
import { t } from '../i18n/i18n.ts';

/** Positions go out this often while online (the service forgets a driver after 2 minutes without one). */
const REPORT_EVERY_MS = 5_000;
/** A moving device reports at most this often. */
const MIN_GAP_MS = 1_000;

/**
 * The ride's reads (GET /rides/active) carry the rider's name; the answers to a step (accept,
 * pickup, …) and the realtime updates do not, so a name once known stays with its ride.
 */
const withName = (next: Ride | null, shown: Ride | null): Ride | null =>
  next && next.riderName === undefined && shown?.id === next.id && shown.riderName !== undefined ? { ...next, riderName: shown.riderName } : next;

/** What the signed-in driver app knows and does: profile, online, offers, the ride, position reports, notices. */
export function useDriver() {
  const api = useApi();
  const notifications = useNotifications();
  const [profile, setProfile] = useState<DriverProfile | null | undefined>(undefined);
  const [online, setOnline] = useState(false);
  const [offers, setOffers] = useState<Offer[]>([]);
  // It starts as the ride under way kept on this device, so the app shows it even offline.
  const [ride, setRide] = useState<Ride | null>(() => underWay(keptRide(api.client)?.ride ?? null));
  const [notice, setNotice] = useState('');
  // The service's clock minus this device's, from the realtime messages' times: offer countdowns follow the service.
  const [skewMs, setSkewMs] = useState(0);
  const { position, source, place } = usePosition(online || ride !== null);

  const loadProfile = useCallback(async () => {
    try {
      setProfile(await api.drivers.profile());
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      setProfile(null);
      go('/profile');
    }
  }, [api]);

  const reload = useCallback(async () => {
    const [active, pending] = await Promise.all([api.rides.active(), api.offers.pending(), notifications.reload()]);
    setRide((shown) => active.find((item) => item.driverId !== null) ?? (shown && shown.status !== 'ACCEPTED' && shown.status !== 'PICKED' ? shown : null));
    setOffers(pending);
  }, [api, notifications.reload]);

  const { channel, state } = useChannel(api.client, {
    message(message) {
      setSkewMs(Date.parse(message.at) - Date.now());
      switch (message.type) {
        case 'offer.created':
          return setOffers((list) => (list.some((offer) => offer.offerId === message.data.offerId) ? list : [...list, message.data]));
        case 'offer.withdrawn':
        case 'offer.expired':
          setNotice(message.type === 'offer.expired' ? t('drive.offerExpired') : t('drive.offerWithdrawn'));
          return setOffers((list) => list.filter((offer) => offer.offerId !== message.data.offerId));
        case 'ride.updated':
          return setRide((shown) => (shown === null || shown.id === message.data.id ? withName(message.data, shown) : shown));
        case 'notification.created':
          return notifications.received(message.data);
      }
    },
    resync: () => void reload().catch(() => undefined),
    problem: (_code, text) => setNotice(text),
  });

  useEffect(() => {
    loadProfile().catch(() => undefined);
    reload().catch(() => undefined);
  }, [loadProfile, reload]);

  useEffect(() => keepRide(api.client, underWay(ride), null), [api, ride]);

  const showRide = useCallback((next: Ride | null) => setRide((shown) => withName(next, shown)), []);
  // A ride just accepted comes without the rider's name: read the ride once to greet them by it.
  const unnamed = rideNeedsName(ride);
  useEffect(() => {
    if (unnamed === null) return;
    api.rides
      .active()
      .then((rides) => {
        const riderName = rides.find((item) => item.id === unnamed)?.riderName;
        if (riderName !== undefined) setRide((shown) => (shown?.id === unnamed ? { ...shown, riderName } : shown));
      })
      .catch(() => undefined);
  }, [api, unnamed]);

  // Report over the realtime channel (REST when it is down): at once when the position changes,
  // then every few seconds, so riders and dispatch always have a fresh one.
  const lastSent = useRef(0);
  const rideId = ride && livePosition(ride.status) ? ride.id : null;
  const report = useCallback(
    (point: Point) => {
      lastSent.current = Date.now();
      if (channel.send({ type: 'position', lat: point.lat, lon: point.lon })) return;
      const sent = rideId ? api.rides.report(rideId, point) : api.drivers.report(point);
      sent.catch((error: Error) => setNotice(error.message));
    },
    [api, channel, rideId],
  );
  const sending = (online || rideId !== null) && position !== null;
  useEffect(() => {
    if (!sending || !position) return;
    const wait = Math.max(0, MIN_GAP_MS - (Date.now() - lastSent.current));
    const soon = setTimeout(() => report(position), wait);
    const steady = setInterval(() => report(position), REPORT_EVERY_MS);
    return () => {
      clearTimeout(soon);
      clearInterval(steady);
    };
  }, [sending, position, report]);

  // A driver who closes the app (or leaves its page) goes offline at once: no ride is offered to a
  // closed app. pagehide, not beforeunload: it also fires when a phone browser drops the page.
  useEffect(() => {
    if (!online) return;
    const leave = () => api.drivers.goOfflineAsAppCloses();
    addEventListener('pagehide', leave);
    return () => removeEventListener('pagehide', leave);
  }, [api, online]);

  const goOffline = useCallback(async () => {
    setOnline(false);
    setOffers([]);
    await api.drivers.goOffline();
  }, [api]);

  return { profile, setProfile, online, goOnline: () => setOnline(true), goOffline, position, source, place, offers, setOffers, skewMs, ride, showRide, notice, setNotice, notifications, channel: state };
}

export type Driver = ReturnType<typeof useDriver>;

/** The ride when it is under way (accepted or started): what the app keeps for offline use. */
function underWay(ride: Ride | null): Ride | null {
  return ride && livePosition(ride.status) ? ride : null;
}

/** The id of an accepted or started ride shown without its rider's name. */
function rideNeedsName(ride: Ride | null): number | null {
  return ride && ride.riderName === undefined && livePosition(ride.status) ? ride.id : null;
}
