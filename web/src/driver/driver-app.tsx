import { AuthScreen } from '../ui/auth-screen.tsx';
import { useApi, useSession, useSettings } from '../ui/app-context.tsx';
import { NotificationsScreen } from '../ui/notifications.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { Shell } from '../ui/shell.tsx';
import { DriveScreen } from './drive-screen.tsx';
import { EarningsScreen } from './earnings-screen.tsx';
import { ProfileScreen } from './profile-screen.tsx';
import { DocumentsScreen } from './documents-screen.tsx';
import { PhoneVerification } from '../ui/phone-verification.tsx';
import { UpcomingScreen } from './upcoming-screen.tsx';
import { useDriver } from './use-driver.ts';

export function DriverApp() {
  const session = useSession();
  if (!session) {
    return (
      <AuthScreen
        title="Ride — driver"
        intro="Go online, take ride offers near you, and get paid for every trip."
        role="DRIVER"
        admits={(role) => role === 'DRIVER'}
        refusal="This account is not a driver account. Sign up here with another e-mail to drive."
      />
    );
  }
  return <SignedIn key={session.userId} />;
}

const ROUTES = ['/', '/upcoming', '/profile', '/earnings', '/notifications'] as const;

function SignedIn() {
  const api = useApi();
  const settings = useSettings();
  const route = matchRoute(ROUTES, useRoute()).pattern;
  const driver = useDriver();
  const { online, notifications } = driver;
  return (
    <Shell
      title="Ride — driver"
      route={route}
      links={[
        { route: '/', label: 'Drive' },
        { route: '/upcoming', label: 'Upcoming' },
        { route: '/earnings', label: 'Earnings' },
        { route: '/profile', label: 'Vehicle' },
      ]}
      unread={notifications.unread}
      channel={driver.channel}
      onSignOut={() => {
        if (online) void api.drivers.goOffline().catch(() => undefined);
        void api.client.signOut();
      }}
    >
      {route === '/profile' && <ProfileScreen profile={driver.profile ?? null} approvalRequired={settings.driverApprovalRequired} onSaved={driver.setProfile} />}
      {route === '/profile' && <PhoneVerification />}
      {route === '/profile' && <DocumentsScreen />}
      {route === '/earnings' && <EarningsScreen />}
      {route === '/upcoming' && <UpcomingScreen />}
      {route === '/notifications' && <NotificationsScreen notifications={notifications} />}
      {route === '/' && <DriveScreen driver={driver} />}
    </Shell>
  );
}
