import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { RidePosition } from '../../../src/contract/types.ts';
import type { Ride, RideStatus } from '../api/types.ts';
import { useChannel } from '../realtime/use-channel.ts';
import { useApi } from '../ui/app-context.tsx';
import { keepRide, keptRide } from '../ui/last-ride.ts';
import { useNotifications } from '../ui/notifications.tsx';

const OPEN: readonly RideStatus[] = ['REQUESTED', 'ACCEPTED', 'PICKED'];
const isOpen = (ride: Ride) => OPEN.includes(ride.status);

/** What the signed-in rider app knows: the ride on screen, where its driver is, the notices, the channel. */
export function useRider() {
  const api = useApi();
  const notifications = useNotifications();
  // The ride on screen: the newest open one, or the one that just ended until the rider moves on.
  // It starts as the open ride kept on this device, so the app shows it (and its codes) even offline.
  const [ride, setRide] = useState<Ride | null>(() => openKept(api.client)?.ride ?? null);
  const [driverAt, setDriverAt] = useState<RidePosition | null>(() => openKept(api.client)?.position ?? null);
  const current = useRef(ride);
  current.current = ride;

  const show = useCallback((next: Ride | null) => {
    if (next?.id !== current.current?.id) setDriverAt(null);
    setRide(next);
  }, []);

  const reload = useCallback(async () => {
    const [active] = await Promise.all([api.rides.active(), notifications.reload()]);
    const newest = active.sort((a, b) => b.id - a.id)[0];
    const shown = current.current;
    if (newest) return show(newest);
    // It ended while the app was away, or changed after it ended (paid, refunded): show it as it is now.
    if (!shown) return;
    const now = (await api.rides.history()).items.find((item) => item.id === shown.id);
    // Unless the rider has moved on meanwhile.
    if (current.current?.id === shown.id) show(now ?? (isOpen(shown) ? null : shown));
  }, [api, notifications.reload, show]);

  const { state } = useChannel(api.client, {
    message(message) {
      switch (message.type) {
        case 'ride.updated': {
          const shown = current.current;
          if (!shown || shown.id === message.data.id || (!isOpen(shown) && isOpen(message.data))) show(message.data);
          return;
        }
        case 'ride.position':
          if (message.data.rideId === current.current?.id) setDriverAt(message.data);
          return;
        case 'notification.created':
          return notifications.received(message.data);
      }
    },
    resync: () => void reload().catch(() => undefined),
  });

  useEffect(() => void reload().catch(() => undefined), [reload]);
  useEffect(() => keepRide(api.client, ride && isOpen(ride) ? ride : null, driverAt), [api, ride, driverAt]);

  return { ride, driverAt, show, notifications, channel: state };
}

function openKept(client: Parameters<typeof keptRide>[0]) {
  const kept = keptRide<RidePosition>(client);
  return kept && isOpen(kept.ride) ? kept : null;
}

export type Rider = ReturnType<typeof useRider>;
