import type { Role, TokenResponse } from './types.ts';

/** An error answer of the API (its uniform body), or the network failing (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

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

export type Query = Record<string, string | number | boolean | undefined>;

interface Call {
  query?: Query;
  body?: unknown;
  /** Send the bearer token (and renew it on a 401); true unless the endpoint is public. */
  auth?: boolean;
}

/** A page of a list the API answers as an array, with the next page's cursor from X-Next-Cursor. */
export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

const SIGNED_OUT = () => new ApiError(401, 'SIGNED_OUT', 'Please sign in again.');

/**
 * The one way the apps talk to the API: same origin, JSON both ways, the bearer token of the
 * session kept in localStorage, errors as ApiError. An expired access token is renewed once for
 * everybody: all requests that got a 401 wait for the same /auth/refresh, then retry once.
 */
export class ApiClient {
  readonly #storageKey: string;
  #session: Session | null;
  #refreshing: Promise<Session> | undefined;
  readonly #listeners = new Set<(session: Session | null) => void>();

  constructor(storageKey: string) {
    this.#storageKey = storageKey;
    this.#session = readSession(storageKey);
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

  /** Ends the session here and, when reachable, on the server (its refresh token is revoked). */
  async signOut(): Promise<void> {
    const session = this.#session;
    this.#store(null);
    if (session) await this.#fetch('POST', '/auth/logout', { body: { refreshToken: session.refreshToken } }).catch(() => undefined);
  }

  /** A valid access token (renewed first when it is about to run out), for the realtime channel. */
  async accessToken(): Promise<string> {
    const session = this.#session;
    if (!session) throw SIGNED_OUT();
    if (session.expiresAt - Date.now() > 30_000) return session.accessToken;
    return (await this.#renew(session.accessToken)).accessToken;
  }

  /** The access token was refused (the realtime channel closed with 4401): renew it once for everybody. */
  async renew(refused: string): Promise<string> {
    return (await this.#renew(refused)).accessToken;
  }

  async get<T>(path: string, query?: Query, auth = true): Promise<T> {
    return (await this.#json<T>('GET', path, { query, auth })).body;
  }

  async post<T>(path: string, body?: unknown, auth = true): Promise<T> {
    return (await this.#json<T>('POST', path, { body, auth })).body;
  }

  async put<T>(path: string, body: unknown): Promise<T> {
    return (await this.#json<T>('PUT', path, { body })).body;
  }

  async delete<T>(path: string): Promise<T> {
    return (await this.#json<T>('DELETE', path, {})).body;
  }

  /**
   * A request that outlives the page (fetch with keepalive: the browser sends it even while the page
   * closes, with the bearer header, which navigator.sendBeacon cannot carry). Nothing waits for the
   * answer, and an expired token is not renewed: the service's own rules cover what this misses.
   */
  parting(method: string, path: string): void {
    const session = this.#session;
    if (!session) return;
    void fetch(path, { method, keepalive: true, headers: { authorization: `Bearer ${session.accessToken}` } }).catch(() => undefined);
  }

  async page<T>(path: string, query?: Query): Promise<Paged<T>> {
    const { body, headers } = await this.#json<T[]>('GET', path, { query });
    return { items: body, nextCursor: headers.get('x-next-cursor') };
  }

  async #json<T>(method: string, path: string, call: Call): Promise<{ body: T; headers: Headers }> {
    const response = call.auth === false ? await this.#fetch(method, path, call) : await this.#authorized(method, path, call);
    if (!response.ok) throw await toError(response);
    return { body: (await response.json()) as T, headers: response.headers };
  }

  async #authorized(method: string, path: string, call: Call): Promise<Response> {
    const session = this.#session;
    if (!session) throw SIGNED_OUT();
    const response = await this.#fetch(method, path, call, session.accessToken);
    if (response.status !== 401) return response;
    const renewed = await this.#renew(session.accessToken);
    return this.#fetch(method, path, call, renewed.accessToken);
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
    const response = await this.#fetch('POST', '/auth/refresh', { body: { refreshToken } });
    if (!response.ok) {
      const error = await toError(response);
      // The session ended (revoked, expired, account changed); a network failure keeps it.
      if (response.status === 401 || response.status === 403) this.#store(null);
      throw error;
    }
    const session = toSession((await response.json()) as TokenResponse);
    this.#store(session);
    return session;
  }

  async #fetch(method: string, path: string, { query, body }: Call, token?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      return await fetch(path + queryString(query), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.');
    }
  }

  #store(session: Session | null): void {
    this.#session = session;
    if (session) localStorage.setItem(this.#storageKey, JSON.stringify(session));
    else localStorage.removeItem(this.#storageKey);
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener(this.#session);
  }
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

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function toError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    return new ApiError(response.status, body.code ?? `HTTP_${response.status}`, body.message ?? response.statusText);
  } catch {
    return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || 'The service answered with an error.');
  }
}
