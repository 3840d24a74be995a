import type {
  AdminUser,
  BookBody,
  CreateUserBody,
  DriverProfile,
  Offer,
  Order,
  OrderBody,
  ProfileBody,
  Ride,
  RideStatusResponse,
  StatusBody,
  TokenResponse,
  VerifyBody,
} from './api-types.ts';

/** An error answer of the service: its status and machine code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A 404 or 409 means the world moved on (an offer withdrawn, a ride cancelled): anything else is a real failure. */
export function expectConflict(error: unknown): void {
  if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 404)) throw error;
}

/** Rate-limited answers are waited out this many times before giving up. */
const RATE_LIMIT_RETRIES = 8;
const MAX_RETRY_WAIT_S = 60;

/** Plain HTTP to the service. A 429 was refused before any work, so it is safe to wait and send again. */
export class Http {
  readonly baseUrl: string;
  /** Answers refused with 429 so far (the service's rate limits are tighter than the simulated city). */
  rateLimited = 0;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async request<T>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      const body = parseJson(await response.text());
      if (response.ok) return body as T;
      if (response.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        this.rateLimited++;
        const waitS = Math.min(MAX_RETRY_WAIT_S, Number(response.headers.get('retry-after')) || 1);
        await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
        continue;
      }
      const error = (body ?? {}) as { code?: string; message?: string };
      throw new ApiError(response.status, error.code ?? 'HTTP_ERROR', `${method} ${path}: ${response.status} ${error.message ?? response.statusText}`);
    }
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

/**
 * One signed-in account and the endpoints it calls. An expired access token is renewed with the
 * refresh token once and the call repeated, so a run longer than a token's life goes on.
 */
export class ApiClient {
  readonly http: Http;
  readonly id: number;
  #accessToken: string;
  #refreshToken: string | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(http: Http, tokens: Pick<TokenResponse, 'accessToken' | 'id'> & { refreshToken?: string }) {
    this.http = http;
    this.id = tokens.id;
    this.#accessToken = tokens.accessToken;
    this.#refreshToken = tokens.refreshToken;
  }

  static async login(http: Http, email: string, password: string): Promise<ApiClient> {
    return new ApiClient(http, await http.request<TokenResponse>('POST', '/auth/login', { body: { email, password } }));
  }

  /** An access token an operator gave; it cannot be renewed, and the service decides what it may do. */
  static withToken(http: Http, accessToken: string): ApiClient {
    return new ApiClient(http, { accessToken, id: 0 });
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  /** Gets a new access token (the realtime channel closes with 4401 when its token expires). */
  renew(): Promise<void> {
    if (!this.#refreshToken) return Promise.reject(new ApiError(401, 'TOKEN_EXPIRED', 'the access token expired and there is no refresh token'));
    this.#refreshing ??= this.http
      .request<TokenResponse>('POST', '/auth/refresh', { body: { refreshToken: this.#refreshToken } })
      .then((tokens) => {
        this.#accessToken = tokens.accessToken;
        this.#refreshToken = tokens.refreshToken;
      })
      .finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const token = this.#accessToken;
    try {
      return await this.http.request<T>(method, path, { body, token });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || !this.#refreshToken) throw error;
      // Another call may have renewed it meanwhile.
      if (token === this.#accessToken) await this.renew();
      return this.http.request<T>(method, path, { body, token: this.#accessToken });
    }
  }

  createUser(body: CreateUserBody): Promise<AdminUser> {
    return this.call('POST', '/admin/users', body);
  }

  saveProfile(body: ProfileBody): Promise<DriverProfile> {
    return this.call('PUT', '/drivers/me/profile', body);
  }

  async goOffline(): Promise<void> {
    await this.call('DELETE', '/drivers/me/location');
  }

  pendingOffers(): Promise<Offer[]> {
    return this.call('GET', '/drivers/me/offers');
  }

  acceptOffer(offerId: number): Promise<Ride> {
    return this.call('POST', `/drivers/me/offers/${offerId}/accept`);
  }

  declineOffer(offerId: number, reason: string): Promise<Offer> {
    return this.call('POST', `/drivers/me/offers/${offerId}/decline`, { reason });
  }

  book(body: BookBody): Promise<Ride> {
    return this.call('POST', '/rides/book', body);
  }

  changeStatus(rideId: number, body: StatusBody): Promise<Ride> {
    return this.call('POST', `/rides/status/${rideId}`, body);
  }

  cancel(rideId: number, reason: string): Promise<Ride> {
    return this.call('POST', `/rides/cancel/${rideId}`, { reason });
  }

  rate(rideId: number, rating: number): Promise<Ride> {
    return this.call('POST', `/rides/feedback/${rideId}`, { rating });
  }

  /** The ride in this account's view (the rider's or the driver's). */
  rideStatus(rideId: number): Promise<RideStatusResponse> {
    return this.call('GET', `/rides/status/${rideId}`);
  }

  order(body: OrderBody): Promise<Order> {
    return this.call('POST', '/payments/order', body);
  }

  verify(body: VerifyBody): Promise<{ success: boolean; message: string }> {
    return this.http.request('POST', '/payments/verify', { body });
  }
}
