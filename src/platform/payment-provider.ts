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

/** The payment provider as the service needs it: create orders, check what it signed. */
export interface PaymentProvider {
  readonly keyId: string;
  createOrder(order: NewOrder): Promise<ProviderOrder>;
  /** The checkout signature: HMAC-SHA256 of `orderId|paymentId` with the key secret. */
  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean;
}

const TIMEOUT_MS = 5_000;

/** HMAC-SHA256 hex digest compared in constant time. */
export function hmacMatches(secret: string, payload: string | Buffer, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(payload).digest();
  const given = Buffer.from(signature, 'hex');
  return /^[0-9a-f]+$/i.test(signature) && given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Razorpay's Orders API over fetch (`POST {apiUrl}/v1/orders`, basic auth). The official SDK
 * cannot point at another base URL, which tests and sandboxes need. A refused or reset connection
 * is retried once; a timeout is not (the provider may still be creating the first order). An
 * unreachable or failing provider is a 503.
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

  async createOrder(order: NewOrder): Promise<ProviderOrder> {
    const request = () =>
      fetch(`${this.#apiUrl}/v1/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${this.keyId}:${this.#keySecret}`).toString('base64')}`,
        },
        body: JSON.stringify(order),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    let response: Response;
    try {
      response = await request().catch((error: unknown) => {
        if (isTimeout(error)) throw error;
        return request();
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
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
