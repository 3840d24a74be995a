import type { Api } from '../api/endpoints.ts';
import type { WebAppSettings } from '../config.ts';
import { AuthScreen } from '../ui/auth-screen.tsx';
import { useRoute } from '../ui/router.ts';
import { Shell, type NavLink } from '../ui/shell.tsx';
import { useSession } from '../ui/use-session.ts';
import { AuditScreen } from './audit-screen.tsx';
import { ComplaintsScreen } from './complaints-screen.tsx';
import { DeletionsScreen } from './deletions-screen.tsx';
import { DriversScreen } from './drivers-screen.tsx';
import { LiveScreen } from './live-screen.tsx';
import { PricingScreen } from './pricing-screen.tsx';
import { RideScreen } from './ride-screen.tsx';
import { RidesScreen } from './rides-screen.tsx';
import { UsersScreen } from './users-screen.tsx';

interface Props {
  api: Api;
  settings: WebAppSettings;
}

const LINKS: NavLink[] = [
  { route: '/', label: 'Live' },
  { route: '/rides', label: 'Rides' },
  { route: '/users', label: 'Accounts' },
  { route: '/drivers', label: 'Drivers' },
  { route: '/deletions', label: 'Deletion requests' },
  { route: '/complaints', label: 'Complaints' },
  { route: '/pricing', label: 'Pricing' },
  { route: '/audit', label: 'Audit trail' },
];

/** `/rides/12` → ride 12. */
const RIDE_ROUTE = /^\/rides\/([1-9][0-9]{0,14})$/;

/** The operator console: the service live, rides, accounts, drivers, support, prices and the audit trail. */
export function OpsApp({ api, settings }: Props) {
  const session = useSession(api.client);
  const asked = useRoute();
  if (!session) {
    return (
      <AuthScreen
        api={api}
        title="Ride — operator console"
        intro="For operators: the service live, rides, accounts, driver approval, complaints, prices and the audit trail."
        role="ADMIN"
        admits={(role) => role === 'ADMIN'}
        refusal="This account is not an operator account."
        signUpNote="Only e-mails listed in the service's ADMIN_EMAILS may sign up here. Whoever runs the service can also make an operator account with npm run create-admin -- --email you@example.com --password '…'."
      />
    );
  }
  const ride = RIDE_ROUTE.exec(asked);
  const route = ride ? '/rides' : LINKS.some((link) => link.route === asked) ? asked : '/';
  return (
    <Shell title="Ride — operator console" route={route} links={LINKS} wide onSignOut={() => void api.client.signOut()}>
      {route === '/' && <LiveScreen api={api} settings={settings} />}
      {route === '/rides' && (ride ? <RideScreen key={ride[1]} api={api} rideId={Number(ride[1])} /> : <RidesScreen api={api} />)}
      {route === '/users' && <UsersScreen api={api} />}
      {route === '/drivers' && <DriversScreen api={api} approvalRequired={settings.driverApprovalRequired} />}
      {route === '/deletions' && <DeletionsScreen api={api} />}
      {route === '/complaints' && <ComplaintsScreen api={api} />}
      {route === '/pricing' && <PricingScreen api={api} />}
      {route === '/audit' && <AuditScreen api={api} />}
    </Shell>
  );
}
