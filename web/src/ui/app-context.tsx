import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Session } from '../api/client.ts';
import type { Api } from '../api/endpoints.ts';
import type { WebAppSettings } from '../config.ts';

interface App {
  api: Api;
  settings: WebAppSettings;
}

// What every screen of an app shares, given once at the top instead of handed down screen by screen.
const AppContext = createContext<App | null>(null);

export function AppProvider({ api, settings, children }: App & { children: ComponentChildren }) {
  return <AppContext.Provider value={{ api, settings }}>{children}</AppContext.Provider>;
}

function useApp(): App {
  const app = useContext(AppContext);
  // A component rendered outside <AppProvider> is a wiring mistake: say so instead of failing on undefined.
  if (!app) throw new Error('This component needs <AppProvider> above it (it reads the API client and settings from it).');
  return app;
}

/** The app's API client (its endpoints and the session's HTTP client). */
export const useApi = (): Api => useApp().api;

/** The service's settings for the apps (/app/config.json). */
export const useSettings = (): WebAppSettings => useApp().settings;

/** The signed-in user, or null; follows sign-in, renewal and sign-out (in this tab or another). */
export function useSession(): Session | null {
  const { client } = useApi();
  const [session, setSession] = useState(client.session);
  useEffect(() => client.onSession(setSession), [client]);
  return session;
}
