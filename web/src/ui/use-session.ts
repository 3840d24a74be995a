import { useEffect, useState } from 'preact/hooks';
import type { ApiClient, Session } from '../api/client.ts';

/** The signed-in user, or null; follows sign-in, renewal and sign-out (in this tab or another). */
export function useSession(client: ApiClient): Session | null {
  const [session, setSession] = useState(client.session);
  useEffect(() => client.onSession(setSession), [client]);
  return session;
}
