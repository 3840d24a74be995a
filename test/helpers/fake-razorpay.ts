import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const KEY_ID = 'rzp_test_key';
export const KEY_SECRET = 'rzp_test_secret_value';
export const WEBHOOK_SECRET = 'rzp_webhook_secret_value';

export interface RecordedOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  authorization: string | undefined;
}

/** What the fake does with the next order requests. */
export type ProviderMode = 'ok' | 'error' | 'slow' | 'reset-once';

/**
 * A local stand-in for Razorpay's Orders API (`POST /v1/orders`, basic auth), at the network
 * boundary: the service talks to it over real HTTP.
 */
export class FakeRazorpay {
  readonly orders: RecordedOrder[] = [];
  mode: ProviderMode = 'ok';
  /** Called with each order before the answer is sent; a test can crash the service here. */
  beforeAnswer: ((order: RecordedOrder) => Promise<void> | void) | undefined;
  readonly #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((request, response) => {
      void this.#handle(request).then(
        ({ status, body }) => {
          if (status === 0) return response.destroy();
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        },
        () => response.destroy(),
      );
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || request.url !== '/v1/orders') return { status: 404, body: { error: { code: 'BAD_REQUEST_ERROR' } } };
    if (this.mode === 'reset-once') {
      this.mode = 'ok';
      return { status: 0 };
    }
    if (this.mode === 'error') return { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'down for maintenance' } } };
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 6_000));
    const expectedAuth = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
    if (request.headers.authorization !== expectedAuth) {
      return { status: 401, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } } };
    }
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<RecordedOrder, 'id' | 'authorization'>;
    if (!Number.isInteger(input.amount) || input.amount < 100 || input.currency !== 'INR' || !input.receipt || input.receipt.length > 40) {
      return { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'invalid order' } } };
    }
    const order: RecordedOrder = { ...input, id: `order_${randomBytes(7).toString('hex')}`, authorization: request.headers.authorization };
    this.orders.push(order);
    await this.beforeAnswer?.(order);
    return {
      status: 200,
      body: { id: order.id, entity: 'order', amount: order.amount, amount_paid: 0, amount_due: order.amount, currency: 'INR', receipt: order.receipt, status: 'created', notes: order.notes, created_at: Math.floor(Date.now() / 1000) },
    };
  }
}

/** The signature Razorpay's checkout hands the client after a successful payment. */
export const checkoutSignature = (orderId: string, paymentId: string, secret = KEY_SECRET) =>
  createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

export const webhookSignature = (body: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(body).digest('hex');

export const paymentId = () => `pay_${randomBytes(7).toString('hex')}`;

/** A Razorpay webhook body for one payment of an order. */
export function webhookEvent(event: 'payment.captured' | 'payment.failed' | 'order.paid', orderId: string, payId: string, amount: number): string {
  const payment = { entity: { id: payId, entity: 'payment', amount, currency: 'INR', status: event === 'payment.failed' ? 'failed' : 'captured', order_id: orderId, method: 'upi' } };
  const payload = event === 'order.paid' ? { payment, order: { entity: { id: orderId, entity: 'order', amount, amount_paid: amount, status: 'paid' } } } : { payment };
  return JSON.stringify({ entity: 'event', account_id: 'acc_test', event, contains: Object.keys(payload), payload, created_at: Math.floor(Date.now() / 1000) });
}
