import { createHmac, timingSafeEqual } from 'node:crypto';
import { unavailable } from './errors.ts';

export interface ProviderOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
}

export interface NewOrder {
  /** Paise. */
  amount: number;
  currency: 'INR';
  /** Unique per order, at most 40 characters. */
  receipt: string;
  notes: Record<string, string>;
}

export interface NewRefund {
  /** The provider's payment the money goes back to. */
  paymentId: string;
  /** Paise. */
  amount: number;
  /** Sent as the X-Refund-Idempotency header: the same key never refunds twice. Also the receipt. */
  idempotencyKey: string;
  notes: Record<string, string>;
}

export interface ProviderRefund {
  id: string;
  amount: number;
  status: 'pending' | 'processed' | 'failed';
}

/** A refund the provider took, or why not: `retry` when trying again later may work (outage, timeout, busy). */
export type RefundAttempt = { ok: true; refund: ProviderRefund } | { ok: false; retry: boolean; reason: string };

/**
 * The most one online payment may be, in rupees: the orders we make stay within the provider's
 * limit, and so does every fare (a ride must be payable online), which keeps fares far inside the
 * database's integer range too.
 */
export const MAX_ORDER_INR = 500_000;

/** The payment provider as the service needs it: create orders, check what it signed, refund. */
export interface PaymentProvider {
  readonly keyId: string;
  createOrder(order: NewOrder): Promise<ProviderOrder>;
  /** The checkout signature: HMAC-SHA256 of `orderId|paymentId` with the key secret. */
  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean;
  refund(refund: NewRefund): Promise<RefundAttempt>;
}

const TIMEOUT_MS = 5_000;
const SHA256_HEX_LENGTH = 64;

/** HMAC-SHA256 hex digest compared in constant time. */
export function hmacMatches(secret: string, payload: string | Buffer, signature: string): boolean {
  // The length first: decoding odd-length hex drops the last character, so one extra would pass.
  if (signature.length !== SHA256_HEX_LENGTH || !/^[0-9a-f]+$/i.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(payload).digest();
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}

/**
 * Razorpay's Orders and Refunds APIs over fetch (basic auth). The official SDK cannot point at
 * another base URL, which tests, sandboxes and the local stand-in need.
 */
export class RazorpayClient implements PaymentProvider {
  readonly keyId: string;
  readonly #keySecret: string;
  readonly #apiUrl: string;

  constructor(options: { keyId: string; keySecret: string; apiUrl: string }) {
    this.keyId = options.keyId;
    this.#keySecret = options.keySecret;
    this.#apiUrl = options.apiUrl;
  }

  /**
   * `POST /v1/orders`. A refused or reset connection is retried once; a timeout is not (the provider
   * may still be creating the first order). An unreachable or failing provider is a 503.
   */
  async createOrder(order: NewOrder): Promise<ProviderOrder> {
    let response: Response;
    try {
      response = await this.#post('/v1/orders', order).catch((error: unknown) => {
        if (isTimeout(error)) throw error;
        return this.#post('/v1/orders', order);
      });
    } catch (error) {
      throw unavailable('The payment provider could not be reached', 'PAYMENT_PROVIDER_UNAVAILABLE', error);
    }
    const body = (await response.json().catch(() => undefined)) as Partial<ProviderOrder> | undefined;
    if (!response.ok || typeof body?.id !== 'string') {
      throw unavailable('The payment provider did not create the order', 'PAYMENT_PROVIDER_UNAVAILABLE', {
        status: response.status,
        error: (body as { error?: unknown } | undefined)?.error,
      });
    }
    return { id: body.id, amount: Number(body.amount), currency: String(body.currency), receipt: String(body.receipt) };
  }

  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean {
    return hmacMatches(this.#keySecret, `${orderId}|${paymentId}`, signature);
  }

  /**
   * `POST /v1/payments/{id}/refund`, idempotent by key. Only a 400 (the request itself is wrong: more
   * than was captured, an unknown payment) is final; anything else may work when tried again.
   */
  async refund(refund: NewRefund): Promise<RefundAttempt> {
    let response: Response;
    try {
      response = await this.#post(
        `/v1/payments/${encodeURIComponent(refund.paymentId)}/refund`,
        { amount: refund.amount, receipt: refund.idempotencyKey, notes: refund.notes },
        { 'x-refund-idempotency': refund.idempotencyKey },
      );
    } catch (error) {
      return { ok: false, retry: true, reason: isTimeout(error) ? 'timed out' : 'unreachable' };
    }
    const body = (await response.json().catch(() => undefined)) as (Partial<ProviderRefund> & { error?: { description?: unknown } }) | undefined;
    if (response.ok && typeof body?.id === 'string' && isRefundStatus(body.status)) {
      return { ok: true, refund: { id: body.id, amount: Number(body.amount), status: body.status } };
    }
    const description = typeof body?.error?.description === 'string' ? body.error.description : 'no description';
    return { ok: false, retry: response.status !== 400, reason: `HTTP ${response.status}: ${description}` };
  }

  #post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.#apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${this.keyId}:${this.#keySecret}`).toString('base64')}`,
        ...headers,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }
}

const isRefundStatus = (value: unknown): value is ProviderRefund['status'] => value === 'pending' || value === 'processed' || value === 'failed';

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
