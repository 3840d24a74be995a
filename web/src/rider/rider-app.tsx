import { AuthScreen } from '../ui/auth-screen.tsx';
import { NotificationsScreen } from '../ui/notifications.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { Shell } from '../ui/shell.tsx';
import { BookScreen } from './book-screen.tsx';
import { HistoryScreen } from './history-screen.tsx';
import { RideScreen } from './ride-screen.tsx';
import { SettingsScreen } from './settings-screen.tsx';
import { PhoneVerification } from '../ui/phone-verification.tsx';
import { useApi, useSession } from '../ui/app-context.tsx';
import { useRider } from './use-rider.ts';

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

const ROUTES = ['/', '/history', '/settings', '/notifications'] as const;

function SignedIn() {
  const api = useApi();
  const route = matchRoute(ROUTES, useRoute()).pattern;
  const { ride, driverAt, show, notifications, channel } = useRider();
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
      channel={channel}
      onSignOut={() => void api.client.signOut()}
    >
      {route === '/history' && <HistoryScreen />}
      {route === '/settings' && <SettingsScreen />}
      {route === '/settings' && <PhoneVerification />}
      {route === '/notifications' && <NotificationsScreen notifications={notifications} />}
      {route === '/' && (ride ? <RideScreen ride={ride} driverAt={driverAt} onRide={show} onDone={() => show(null)} /> : <BookScreen onBooked={show} />)}
    </Shell>
  );
}
