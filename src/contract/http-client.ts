import type { ParamNames, Route } from './routes.ts';

// The one HTTP client of the API, for the web apps (in the browser), the simulator and the tests
// (in Node): fetch only, requests built from the route table, errors as ApiError. What differs
// between them is passed in: where the service is, how a request travels (a test hands in a fetch
// over app.inject), where the access token comes from and how it is renewed.

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

/** Where the bearer token comes from. */
export interface TokenSource {
  /** The access token to send now; undefined when signed out. */
  token(): string | undefined;
  /** The service refused `refused` with 401: a new token (one renewal shared by every waiting request), or a throw. */
  renew?(refused: string): Promise<string>;
}

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** The service's origin; '' (the default) is the page's own. */
  baseUrl?: string;
  fetch?: Fetch;
  tokens?: TokenSource;
  /** How often a 429 is waited out (its Retry-After) and sent again: a 429 was refused before any work. 0 by default. */
  rateLimitRetries?: number;
  /** Told of every 429 that is waited out. */
  onRateLimited?: () => void;
}

type Params<P extends string> = [ParamNames<P>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<P>, string | number> };
type Body<B> = [B] extends [never] ? { body?: undefined } : { body: B };

/** What a call of a route takes besides the route: its path parameters, query and body, when it has them. */
export type Input<P extends string, Q, B> = Params<P> &
  Body<B> & {
    query?: [Q] extends [never] ? undefined : Q;
    /** Sent as Idempotency-Key: the same key and body within a day is answered once (docs/operations.md). */
    idempotencyKey?: string;
    /** The request outlives the page (fetch keepalive, as a page closes); its token is not renewed. */
    keepalive?: boolean;
  };

type InputOf<R> = R extends Route<infer P, infer Q, infer B, unknown> ? Input<P, Q, B> : never;
/** The input is optional when nothing in it is required. */
type Args<R> = Record<never, never> extends InputOf<R> ? [input?: InputOf<R>] : [input: InputOf<R>];
export type BodyOf<R> = R extends Route<string, unknown, infer B, unknown> ? B : never;
export type QueryOf<R> = R extends Route<string, infer Q, unknown, unknown> ? Q : never;
export type ResponseOf<R> = R extends Route<string, unknown, unknown, infer A> ? A : never;

/** An answer as it came: its status, its body (parsed JSON; undefined when empty or not JSON) and headers. */
export interface Answer<B = unknown> {
  status: number;
  body: B;
  headers: Headers;
}

/** A page of a list the API answers as an array, with the next page's cursor from X-Next-Cursor. */
export interface Paged<Item> {
  items: Item[];
  nextCursor: string | null;
}

const MAX_RETRY_WAIT_S = 60;

/** A route's path with its parameters filled in. */
export function pathOf(route: Route, params: Record<string, string | number> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(params[name]));
  });
}

export class HttpClient {
  readonly baseUrl: string;
  readonly #fetch: Fetch;
  readonly #tokens: TokenSource | undefined;
  readonly #options: HttpClientOptions;

  constructor(options: HttpClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.#tokens = options.tokens;
    this.#options = options;
  }

  /** The route's answer on success; an ApiError otherwise. */
  async call<R extends Route>(route: R, ...[input]: Args<R>): Promise<ResponseOf<R>> {
    const answer = await this.send(route, ...([input] as Args<R>));
    if (answer.status < 200 || answer.status > 299) throw toError(answer);
    return answer.body as ResponseOf<R>;
  }

  /** A page of a list answered as an array, with the cursor of the next page. */
  async page<R extends Route>(route: R, ...[input]: Args<R>): Promise<Paged<ResponseOf<R> extends Array<infer Item> ? Item : never>> {
    const answer = await this.send(route, ...([input] as Args<R>));
    if (answer.status < 200 || answer.status > 299) throw toError(answer);
    return { items: answer.body as never, nextCursor: answer.headers.get('x-next-cursor') };
  }

  /** The answer whatever its status (a refusal's body is the uniform error); an ApiError only when the network fails. */
  async send<R extends Route>(route: R, ...[input]: Args<R>): Promise<Answer> {
    const given = (input ?? {}) as { params?: Record<string, string | number>; query?: Record<string, string | number | boolean | undefined>; body?: unknown; idempotencyKey?: string; keepalive?: boolean };
    const url = this.baseUrl + pathOf(route, given.params) + queryString(given.query);
    const token = route.access === 'public' ? undefined : this.#tokens?.token();
    if (route.access === 'user' && !token) throw new ApiError(401, 'SIGNED_OUT', 'Please sign in again.');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (given.body !== undefined) headers['content-type'] = 'application/json';
    if (given.idempotencyKey) headers['idempotency-key'] = given.idempotencyKey;
    const init: RequestInit = { method: route.method, headers, keepalive: given.keepalive, body: given.body === undefined ? undefined : JSON.stringify(given.body) };
    const answer = await this.#retrying(url, init, token);
    if (answer.status !== 401 || !token || !this.#tokens?.renew || given.keepalive) return answer;
    return this.#retrying(url, init, await this.#tokens.renew(token));
  }

  /** A route that answers a file rather than JSON: its bytes, or an ApiError with the refusal's code. */
  async file<R extends Route>(route: R, ...[input]: Args<R>): Promise<Blob> {
    const given = (input ?? {}) as { params?: Record<string, string | number> };
    const token = this.#tokens?.token();
    let response: Response;
    try {
      response = await this.#fetch(this.baseUrl + pathOf(route, given.params), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    } catch (cause) {
      throw Object.assign(new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.'), { cause });
    }
    if (!response.ok) throw toError({ status: response.status, body: parseJson(await response.text()), headers: response.headers });
    return response.blob();
  }

  async #retrying(url: string, init: RequestInit, token: string | undefined): Promise<Answer> {
    const headers = { ...(init.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#once(url, { ...init, headers });
      if (answer.status !== 429 || attempt >= (this.#options.rateLimitRetries ?? 0)) return answer;
      this.#options.onRateLimited?.();
      const waitS = Math.min(MAX_RETRY_WAIT_S, Number(answer.headers.get('retry-after')) || 1);
      await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
    }
  }

  async #once(url: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    try {
      response = await this.#fetch(url, init);
    } catch (cause) {
      throw Object.assign(new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.'), { cause });
    }
    return { status: response.status, body: parseJson(await response.text()), headers: response.headers };
  }
}

/** A body that is not JSON (a proxy's error page) counts as no body. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function queryString(query: Record<string, string | number | boolean | undefined> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toError(answer: Answer): ApiError {
  const body = (answer.body ?? {}) as { code?: string; message?: string };
  return new ApiError(answer.status, body.code ?? `HTTP_${answer.status}`, body.message ?? 'The service answered with an error.');
}
