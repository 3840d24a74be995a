import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { RidePosition } from '../../../src/contract/types.ts';
import type { Ride, RideStatus } from '../api/types.ts';
import { useChannel } from '../realtime/use-channel.ts';
import { AuthScreen } from '../ui/auth-screen.tsx';
import { NotificationsScreen, useNotifications } from '../ui/notifications.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { Shell } from '../ui/shell.tsx';
import { BookScreen } from './book-screen.tsx';
import { HistoryScreen } from './history-screen.tsx';
import { RideScreen } from './ride-screen.tsx';
import { SettingsScreen } from './settings-screen.tsx';
import { useApi, useSession, useSettings } from '../ui/app-context.tsx';

export function RiderApp() {
  const session = useSession();
  if (!session) {
    return (
      <AuthScreen
        title="Ride"
        intro="Book a ride across the city, follow your driver on the map and pay in cash or online."
        role="USER"
        admits={(role) => role !== 'DRIVER'}
        refusal="This is a driver account: drivers use the driver app at /app/driver."
      />
    );
  }
  return <SignedIn key={session.userId} />;
}

const OPEN: readonly RideStatus[] = ['REQUESTED', 'ACCEPTED', 'PICKED'];
const isOpen = (ride: Ride) => OPEN.includes(ride.status);

const ROUTES = ['/', '/history', '/settings', '/notifications'] as const;

function SignedIn() {
  const api = useApi();
  const settings = useSettings();
  const asked = useRoute();
  const route = matchRoute(ROUTES, asked).pattern;
  const notifications = useNotifications(api);
  // The ride on screen: the newest open one, or the one that just ended until the rider moves on.
  const [ride, setRide] = useState<Ride | null>(null);
  const [driverAt, setDriverAt] = useState<RidePosition | null>(null);
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

  return (
    <Shell
      title="Ride"
      route={route}
      links={[
        { route: '/', label: 'Ride' },
        { route: '/history', label: 'History' },
        { route: '/settings', label: 'Settings' },
      ]}
      unread={notifications.unread}
      channel={state}
      onSignOut={() => void api.client.signOut()}
    >
      {route === '/history' && <HistoryScreen />}
      {route === '/settings' && <SettingsScreen />}
      {route === '/notifications' && <NotificationsScreen notifications={notifications} />}
      {route === '/' &&
        (ride ? (
          <RideScreen settings={settings} ride={ride} driverAt={driverAt} onRide={show} onDone={() => show(null)} />
        ) : (
          <BookScreen settings={settings} onBooked={show} />
        ))}
    </Shell>
  );
}
