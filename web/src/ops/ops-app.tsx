import type { VNode } from 'preact';
import { rich, t, type MessageKey } from '../i18n/i18n.ts';
import { AuthScreen } from '../ui/auth-screen.tsx';
import { LanguagePicker, useChosenLanguage } from '../ui/localized.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { PushToggle } from '../ui/push-toggle.tsx';
import { Shell } from '../ui/shell.tsx';
import { AuditScreen } from './audit-screen.tsx';
import { ComplaintsScreen } from './complaints-screen.tsx';
import { ComplianceScreen } from './compliance-screen.tsx';
import { DeletionsScreen } from './deletions-screen.tsx';
import { DriversScreen } from './drivers-screen.tsx';
import { IncidentAlarm, useOpenIncidents } from './incident-alarm.tsx';
import { IncidentsScreen } from './incidents-screen.tsx';
import { LiveScreen } from './live-screen.tsx';
import { PricingScreen } from './pricing-screen.tsx';
import { RideScreen } from './ride-screen.tsx';
import { RidesScreen } from './rides-screen.tsx';
import { UsersScreen } from './users-screen.tsx';
import { useApi, useSession, useSettings } from '../ui/app-context.tsx';

/** The navigation, in the order it shows: each route with its name in the catalogue. */
const LINKS = [
  ['/', 'ops.nav.live'],
  ['/rides', 'ops.nav.rides'],
  ['/users', 'ops.nav.users'],
  ['/drivers', 'ops.nav.drivers'],
  ['/deletions', 'ops.nav.deletions'],
  ['/incidents', 'ops.nav.incidents'],
  ['/complaints', 'ops.nav.complaints'],
  ['/pricing', 'ops.nav.pricing'],
  ['/compliance', 'ops.nav.compliance'],
  ['/audit', 'ops.nav.audit'],
  ['/settings', 'ops.nav.settings'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;

const ROUTES = ['/', '/rides', '/rides/:id', '/users', '/drivers', '/deletions', '/incidents', '/complaints', '/pricing', '/compliance', '/audit', '/settings'] as const;
/** A ride's id as `/rides/:id` may name it. */
const RIDE_ID = /^[1-9][0-9]{0,14}$/;

/** The operator console: the service live, rides, accounts, drivers, support, prices and their compliance, and the audit trail. */
export function OpsApp() {
  const api = useApi();
  const settings = useSettings();
  const session = useSession();
  const asked = useRoute();
  useChosenLanguage();
  if (!session) {
    return (
      <AuthScreen
        title={t('ops.title')}
        intro={t('ops.intro')}
        role="ADMIN"
        admits={(role) => role === 'ADMIN'}
        refusal={t('ops.refusal')}
        signUpNote={rich<VNode>('ops.signUpNote', { code: (chunks) => <code>{chunks}</code> })}
      />
    );
  }
  const { pattern, params } = matchRoute(ROUTES, asked);
  const rideId = pattern === '/rides/:id' && RIDE_ID.test(params.id) ? Number(params.id) : null;
  // A ride's page is under Rides in the navigation; a ride id that is no id leads home.
  const route = pattern === '/rides/:id' ? (rideId === null ? '/' : '/rides') : pattern;
  return (
    <Shell title={t('ops.title')} route={route} links={LINKS.map(([path, label]) => ({ route: path, label: t(label) }))} wide onSignOut={() => void api.client.signOut()}>
      <SignedInDesk route={route} />
      {route === '/' && <LiveScreen />}
      {route === '/rides' && (rideId !== null ? <RideScreen key={rideId} rideId={rideId} /> : <RidesScreen />)}
      {route === '/users' && <UsersScreen />}
      {route === '/drivers' && <DriversScreen approvalRequired={settings.driverApprovalRequired} />}
      {route === '/deletions' && <DeletionsScreen />}
      {route === '/complaints' && <ComplaintsScreen />}
      {route === '/pricing' && <PricingScreen />}
      {route === '/compliance' && <ComplianceScreen />}
      {route === '/audit' && <AuditScreen />}
      {route === '/settings' && <SettingsScreen />}
    </Shell>
  );
}

/** The incident alarm on every screen of a signed-in operator, and the incident desk's own screen. */
function SignedInDesk({ route }: { route: string }) {
  const { open, changed } = useOpenIncidents();
  return (
    <>
      <IncidentAlarm open={open} />
      {route === '/incidents' && <IncidentsScreen changed={changed} />}
      {route === '/incidents' && <PushToggle what={t('ops.push.what')} />}
    </>
  );
}

/** The operator's own settings: the console's language (settings.language; none means the browser's). */
function SettingsScreen() {
  return (
    <section class="card stack" aria-labelledby="settings-title">
      <h2 id="settings-title" class="flush">
        {t('ops.settings.title')}
      </h2>
      <p class="muted flush">{t('ops.settings.languageNote')}</p>
      <LanguagePicker />
    </section>
  );
}
