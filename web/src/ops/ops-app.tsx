import { AuthScreen } from '../ui/auth-screen.tsx';
import { matchRoute, useRoute } from '../ui/router.ts';
import { PushToggle } from '../ui/push-toggle.tsx';
import { Shell, type NavLink } from '../ui/shell.tsx';
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

const LINKS: NavLink[] = [
  { route: '/', label: 'Live' },
  { route: '/rides', label: 'Rides' },
  { route: '/users', label: 'Accounts' },
  { route: '/drivers', label: 'Drivers' },
  { route: '/deletions', label: 'Deletion requests' },
  { route: '/incidents', label: 'Incidents' },
  { route: '/complaints', label: 'Complaints' },
  { route: '/pricing', label: 'Pricing' },
  { route: '/compliance', label: 'Compliance' },
  { route: '/audit', label: 'Audit trail' },
];

const ROUTES = ['/', '/rides', '/rides/:id', '/users', '/drivers', '/deletions', '/incidents', '/complaints', '/pricing', '/compliance', '/audit'] as const;
/** A ride's id as `/rides/:id` may name it. */
const RIDE_ID = /^[1-9][0-9]{0,14}$/;

/** The operator console: the service live, rides, accounts, drivers, support, prices and their compliance, and the audit trail. */
export function OpsApp() {
  const api = useApi();
  const settings = useSettings();
  const session = useSession();
  const asked = useRoute();
  if (!session) {
    return (
      <AuthScreen
        title="Ride — operator console"
        intro="For operators: the service live, rides, accounts, driver approval, complaints, prices, their compliance and the audit trail."
        role="ADMIN"
        admits={(role) => role === 'ADMIN'}
        refusal="This account is not an operator account."
        signUpNote="Only e-mails listed in the service's ADMIN_EMAILS may sign up here. Whoever runs the service can also make an operator account with npm run create-admin -- --email you@example.com --password '…'."
      />
    );
  }
  const { pattern, params } = matchRoute(ROUTES, asked);
  const rideId = pattern === '/rides/:id' && RIDE_ID.test(params.id) ? Number(params.id) : null;
  // A ride's page is under Rides in the navigation; a ride id that is no id leads home.
  const route = pattern === '/rides/:id' ? (rideId === null ? '/' : '/rides') : pattern;
  return (
    <Shell title="Ride — operator console" route={route} links={LINKS} wide onSignOut={() => void api.client.signOut()}>
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
      {route === '/incidents' && <PushToggle what="SOS alerts" />}
    </>
  );
}
