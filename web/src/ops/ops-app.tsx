import type { Api } from '../api/endpoints.ts';
import { AuthScreen } from '../ui/auth-screen.tsx';
import { useRoute } from '../ui/router.ts';
import { Shell } from '../ui/shell.tsx';
import { useSession } from '../ui/use-session.ts';
import { AuditScreen } from './audit-screen.tsx';
import { UsersScreen } from './users-screen.tsx';
import { ZonesScreen } from './zones-screen.tsx';

const SCREENS = ['/', '/users', '/audit'];

/** The operator console: the screens whose operator endpoints exist so far. */
export function OpsApp({ api }: { api: Api }) {
  const session = useSession(api.client);
  const asked = useRoute();
  if (!session) {
    return (
      <AuthScreen
        api={api}
        title="Ride — operator console"
        intro="For operators: zones and surge, accounts and the audit trail."
        role="ADMIN"
        admits={(role) => role === 'ADMIN'}
        refusal="This account is not an operator account."
      />
    );
  }
  const route = SCREENS.includes(asked) ? asked : '/';
  return (
    <Shell
      title="Ride — operator console"
      route={route}
      links={[
        { route: '/', label: 'Zones' },
        { route: '/users', label: 'Accounts' },
        { route: '/audit', label: 'Audit trail' },
      ]}
      onSignOut={() => void api.client.signOut()}
    >
      {route === '/' && <ZonesScreen api={api} />}
      {route === '/users' && <UsersScreen api={api} />}
      {route === '/audit' && <AuditScreen api={api} />}
    </Shell>
  );
}
