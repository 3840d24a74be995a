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
import { PushToggle } from '../ui/push-toggle.tsx';
import { UpcomingScreen } from './upcoming-screen.tsx';
import { useDriver } from './use-driver.ts';
import { t } from '../i18n/i18n.ts';
import { LanguagePicker, useChosenLanguage } from '../ui/localized.tsx';

export function DriverApp() {
  const session = useSession();
  if (!session) {
    return (
      <AuthScreen
        title={t('driver.title')}
        intro={t('driver.intro')}
        role="DRIVER"
        admits={(role) => role === 'DRIVER'}
        refusal={t('driver.refusal')}
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
  useChosenLanguage();
  return (
    <Shell
      title={t('driver.title')}
      route={route}
      links={[
        { route: '/', label: t('driver.nav.drive') },
        { route: '/upcoming', label: t('driver.nav.upcoming') },
        { route: '/earnings', label: t('driver.nav.earnings') },
        { route: '/profile', label: t('driver.nav.vehicle') },
      ]}
      unread={notifications.unread}
      channel={driver.channel}
      onSignOut={() => {
        if (online) void api.drivers.goOffline().catch(() => undefined);
        void api.client.signOut();
      }}
    >
      {route === '/profile' && <ProfileScreen profile={driver.profile ?? null} approvalRequired={settings.driverApprovalRequired} onSaved={driver.setProfile} />}
      {route === '/profile' && (
        <div class="card stack">
          <LanguagePicker />
        </div>
      )}
      {route === '/profile' && <PhoneVerification />}
      {route === '/profile' && <PushToggle what={t('push.driverWhat')} />}
      {route === '/profile' && <DocumentsScreen />}
      {route === '/earnings' && <EarningsScreen />}
      {route === '/upcoming' && <UpcomingScreen />}
      {route === '/notifications' && <NotificationsScreen notifications={notifications} />}
      {route === '/' && <DriveScreen driver={driver} />}
    </Shell>
  );
}
