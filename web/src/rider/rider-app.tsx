import { AuthScreen } from '../ui/auth-screen.tsx';
import { NotificationsScreen } from '../ui/notifications.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { Shell } from '../ui/shell.tsx';
import { BookScreen } from './book-screen.tsx';
import { HistoryScreen } from './history-screen.tsx';
import { RideScreen } from './ride-screen.tsx';
import { SettingsScreen } from './settings-screen.tsx';
import { PushToggle } from '../ui/push-toggle.tsx';
import { PhoneVerification } from '../ui/phone-verification.tsx';
import { useApi, useSession } from '../ui/app-context.tsx';
import { useRider } from './use-rider.ts';
import { t } from '../i18n/i18n.ts';
import { useChosenLanguage } from '../ui/localized.tsx';

export function RiderApp() {
  const session = useSession();
  if (!session) {
    return (
      <AuthScreen
        title={t('rider.title')}
        intro={t('rider.intro')}
        role="USER"
        admits={(role) => role !== 'DRIVER'}
        refusal={t('rider.refusal')}
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
  useChosenLanguage();
  return (
    <Shell
      title={t('rider.title')}
      route={route}
      links={[
        { route: '/', label: t('rider.nav.ride') },
        { route: '/history', label: t('rider.nav.history') },
        { route: '/settings', label: t('rider.nav.settings') },
      ]}
      unread={notifications.unread}
      channel={channel}
      onSignOut={() => void api.client.signOut()}
    >
      {route === '/history' && <HistoryScreen />}
      {route === '/settings' && <SettingsScreen />}
      {route === '/settings' && <PhoneVerification />}
      {route === '/settings' && <PushToggle what={t('push.riderWhat')} />}
      {route === '/notifications' && <NotificationsScreen notifications={notifications} />}
      {route === '/' && (ride ? <RideScreen ride={ride} driverAt={driverAt} onRide={show} onDone={() => show(null)} /> : <BookScreen onBooked={show} />)}
    </Shell>
  );
}
