import { ApiError, HttpClient, type TokenSource } from '../../../src/contract/http-client.ts';
import { routes } from '../../../src/contract/routes.ts';
import type { Role, TokenResponse } from './types.ts';
import { currentPushSubscription } from './web-push.ts';

export { ApiError };
export type { Paged } from '../../../src/contract/http-client.ts';

/** A signed-in user as an app keeps them between visits. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** When the access token runs out (epoch ms, by this device's clock). */
  expiresAt: number;
  userId: number;
  name: string;
  role: Role;
}

const SIGNED_OUT = () => new ApiError(401, 'SIGNED_OUT', 'Please sign in again.');

/**
 * The session of one app, and the contract's HTTP client that uses it: the bearer token kept in
 * localStorage, and an expired access token renewed once for everybody (all requests that got a
 * 401 wait for the same /auth/refresh, then retry once).
 */
export class ApiClient implements TokenSource {
  readonly http: HttpClient;
  readonly #storageKey: string;
  #session: Session | null;
  #refreshing: Promise<Session> | undefined;
  readonly #listeners = new Set<(session: Session | null) => void>();

  constructor(storageKey: string) {
    this.#storageKey = storageKey;
    this.#session = readSession(storageKey);
    this.http = new HttpClient({ tokens: this });
    // Another tab of the same app renewed or ended the session: use its tokens.
    window.addEventListener('storage', (event) => {
      if (event.key !== storageKey) return;
      this.#session = readSession(storageKey);
      this.#notify();
    });
  }

  get session(): Session | null {
    return this.#session;
  }

  token(): string | undefined {
    return this.#session?.accessToken;
  }

  /** Where the app keeps something of this session on the device (localStorage); the session's end removes it. */
  deviceKey(name: string): string {
    return `${this.#storageKey}.${name}`;
  }

  /** Called whenever the user signs in, is renewed or is signed out; returns the unsubscribe. */
  onSession(listener: (session: Session | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  signIn(tokens: TokenResponse): Session {
    const session = toSession(tokens);
    this.#store(session);
    return session;
  }

  /**
   * Ends the session here and, when reachable, on the server (its refresh token is revoked). This
   * browser's push subscription goes first, while the token still works: the next person to sign in
   * here is not sent the last one's offers.
   */
  async signOut(): Promise<void> {
    const session = this.#session;
    const subscription = session ? await currentPushSubscription().catch(() => null) : null;
    if (subscription) {
      await this.http.send(routes.push.unsubscribe, { body: { endpoint: subscription.endpoint }, keepalive: true }).catch(() => undefined);
      await subscription.unsubscribe().catch(() => false);
    }
    this.#store(null);
    if (session) await this.http.send(routes.auth.logout, { body: { refreshToken: session.refreshToken } }).catch(() => undefined);
  }

  /** A valid access token (renewed first when it is about to run out), for the realtime channel. */
  async accessToken(): Promise<string> {
    const session = this.#session;
    if (!session) throw SIGNED_OUT();
    if (session.expiresAt - Date.now() > 30_000) return session.accessToken;
    return (await this.#renew(session.accessToken)).accessToken;
  }

  /** The access token was refused (a 401, or the realtime channel closed with 4401): renew it once for everybody. */
  async renew(refused: string): Promise<string> {
    return (await this.#renew(refused)).accessToken;
  }

  #renew(refused: string): Promise<Session> {
    const current = this.#session;
    if (!current) return Promise.reject(SIGNED_OUT());
    // Someone else renewed it while this request was out: use theirs.
    if (current.accessToken !== refused) return Promise.resolve(current);
    this.#refreshing ??= this.#refresh(current.refreshToken).finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #refresh(refreshToken: string): Promise<Session> {
    try {
      const session = toSession(await this.http.call(routes.auth.refresh, { body: { refreshToken } }));
      this.#store(session);
      return session;
    } catch (error) {
      // The session ended (revoked, expired, account changed); a network failure keeps it.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) this.#store(null);
      throw error;
    }
  }

  #store(session: Session | null): void {
    this.#session = session;
    if (session) localStorage.setItem(this.#storageKey, JSON.stringify(session));
    else forget(this.#storageKey);
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener(this.#session);
  }
}

/** The session and everything kept with it (deviceKey): a signed-out device keeps no ride and no code. */
function forget(storageKey: string): void {
  const kept = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((key) => key !== null && key.startsWith(`${storageKey}.`));
  for (const key of [storageKey, ...kept]) localStorage.removeItem(key!);
}

function toSession(tokens: TokenResponse): Session {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: Date.now() + tokens.expiresIn * 1000,
    userId: tokens.id,
    name: tokens.name,
    role: tokens.role,
  };
}

function readSession(key: string): Session | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as Session | null;
    return value && typeof value.accessToken === 'string' && typeof value.refreshToken === 'string' ? value : null;
  } catch {
    return null;
  }
}
