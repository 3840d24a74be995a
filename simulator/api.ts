import { ApiError, HttpClient, type TokenSource } from '../src/contract/http-client.ts';
import { ResumeClient } from '../src/contract/realtime-client.ts';
import { REALTIME_PATH, routes } from '../src/contract/routes.ts';
import type { AdminUser, BookBody, ChargeBody, CreateUserBody, DriverProfile, Offer, Order, OrderBody, PricingHistory, PricingRules, PricingVersion, ProfileBody, Ride, RideStatusResponse, ServerMessage, StatusBody, TokenResponse, VerifyBody } from './api-types.ts';

export { ApiError };

/** A 404 or 409 means the world moved on (an offer withdrawn, a ride cancelled): anything else is a real failure. */
export function expectConflict(error: unknown): void {
  if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 404)) throw error;
}

/** Rate-limited answers are waited out this many times before giving up. */
const RATE_LIMIT_RETRIES = 8;

/** Where the service is, and how often it refused with 429 (its rate limits are tighter than the simulated city). */
export class Http {
  readonly baseUrl: string;
  /** Answers refused with 429 so far. */
  rateLimited = 0;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** The contract's client, sending `tokens`' token. A 429 was refused before any work, so it is safe to wait and send again. */
  client(tokens?: TokenSource): HttpClient {
    return new HttpClient({ baseUrl: this.baseUrl, tokens, rateLimitRetries: RATE_LIMIT_RETRIES, onRateLimited: () => this.rateLimited++ });
  }
}

/**
 * One signed-in account and the endpoints it calls. An expired access token is renewed with the
 * refresh token once and the call repeated, so a run longer than a token's life goes on.
 */
export class ApiClient implements TokenSource {
  readonly http: Http;
  readonly id: number;
  readonly #api: HttpClient;
  #accessToken: string;
  #refreshToken: string | undefined;
  #refreshing: Promise<string> | undefined;

  constructor(http: Http, tokens: Pick<TokenResponse, 'accessToken' | 'id'> & { refreshToken?: string }) {
    this.http = http;
    this.id = tokens.id;
    this.#api = http.client(this);
    this.#accessToken = tokens.accessToken;
    this.#refreshToken = tokens.refreshToken;
  }

  static async login(http: Http, email: string, password: string): Promise<ApiClient> {
    return new ApiClient(http, await http.client().call(routes.auth.login, { body: { email, password } }));
  }

  /** An access token an operator gave; it cannot be renewed, and the service decides what it may do. */
  static withToken(http: Http, accessToken: string): ApiClient {
    return new ApiClient(http, { accessToken, id: 0 });
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  token(): string {
    return this.#accessToken;
  }

  /** A new access token (after a 401, or the realtime channel closing with 4401 when its token expired). */
  renew(refused = this.#accessToken): Promise<string> {
    // Another call renewed it meanwhile.
    if (refused !== this.#accessToken) return Promise.resolve(this.#accessToken);
    const refreshToken = this.#refreshToken;
    if (!refreshToken) return Promise.reject(new ApiError(401, 'TOKEN_EXPIRED', 'the access token expired and there is no refresh token'));
    this.#refreshing ??= this.http
      .client()
      .call(routes.auth.refresh, { body: { refreshToken } })
      .then((tokens) => {
        this.#accessToken = tokens.accessToken;
        this.#refreshToken = tokens.refreshToken;
        return tokens.accessToken;
      })
      .finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  /**
   * The account's realtime channel (the contract's resume client), reconnecting quickly since the
   * simulated city's clock runs fast. `warn` hears the server's refusals and every reconnection.
   */
  realtime(handlers: { message(message: ServerMessage): void; resync(): void }, warn: (text: string) => void): ResumeClient {
    return new ResumeClient(
      { url: `${this.http.baseUrl.replace(/^http/, 'ws')}${REALTIME_PATH}`, token: async () => this.#accessToken, renew: (refused) => this.renew(refused), backoffMs: [100, 500, 1000, 2000, 5000], maxFailures: 10 },
      {
        message: (message) => handlers.message(message),
        // A first connection has nothing to catch up on: the simulator's own state is the start.
        resync: (reason) => reason !== 'start' && handlers.resync(),
        problem: (code, text) => warn(`realtime: ${code} ${text}`),
        closed: (code) => warn(`realtime: closed with ${code}; connecting again`),
      },
    );
  }

  createUser(body: CreateUserBody): Promise<AdminUser> {
    return this.#api.call(routes.admin.createUser, { body });
  }

  pricing(): Promise<PricingHistory> {
    return this.#api.call(routes.admin.pricing);
  }

  savePricing(body: PricingRules): Promise<PricingVersion> {
    return this.#api.call(routes.admin.savePricing, { body });
  }

  /** SERVICE_TIMEZONE: the zone of the service's clock, which its pricing's night window is written in. */
  async serviceTimeZone(): Promise<string> {
    return (await this.#api.call(routes.admin.overview)).timeZone;
  }

  saveProfile(body: ProfileBody): Promise<DriverProfile> {
    return this.#api.call(routes.drivers.saveProfile, { body });
  }

  async goOffline(): Promise<void> {
    await this.#api.call(routes.drivers.goOffline);
  }

  pendingOffers(): Promise<Offer[]> {
    return this.#api.call(routes.offers.pending);
  }

  acceptOffer(offerId: number): Promise<Ride> {
    return this.#api.call(routes.offers.accept, { params: { offerId } });
  }

  declineOffer(offerId: number, reason: string): Promise<Offer> {
    return this.#api.call(routes.offers.decline, { params: { offerId }, body: { reason } });
  }

  book(body: BookBody): Promise<Ride> {
    return this.#api.call(routes.rides.book, { body });
  }

  changeStatus(rideId: number, body: StatusBody): Promise<Ride> {
    return this.#api.call(routes.rides.change, { params: { rideId }, body });
  }

  /** A toll or parking fee the driver paid on a PICKED ride (passed through to the rider at cost). */
  addCharge(rideId: number, body: ChargeBody): Promise<Ride> {
    return this.#api.call(routes.rides.charge, { params: { rideId }, body });
  }

  /** The driver reached stop `index` (from 0) of a PICKED ride. */
  stopArrived(rideId: number, index: number): Promise<Ride> {
    return this.#api.call(routes.rides.stopArrived, { params: { rideId, index } });
  }

  cancel(rideId: number, reason: string): Promise<Ride> {
    return this.#api.call(routes.rides.cancel, { params: { rideId }, body: { reason } });
  }

  rate(rideId: number, rating: number): Promise<Ride> {
    return this.#api.call(routes.rides.feedback, { params: { rideId }, body: { rating } });
  }

  /** The ride in this account's view (the rider's or the driver's). */
  rideStatus(rideId: number): Promise<RideStatusResponse> {
    return this.#api.call(routes.rides.status, { params: { rideId } });
  }

  order(body: OrderBody): Promise<Order> {
    return this.#api.call(routes.payments.order, { body });
  }

  verify(body: VerifyBody): Promise<{ success: boolean; message: string }> {
    return this.#api.call(routes.payments.verify, { body });
  }
}
