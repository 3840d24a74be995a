import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { badRequest, checkoutSuccess, send, type Answer } from './provider-answers.ts';
import { checkout } from './provider-checkout.ts';

// A local stand-in for the parts of Razorpay this service uses, over real HTTP: the Orders API, a
// checkout that pays an order (a script for apps in a browser, a page for people, a JSON call for
// scripts and tests) and hands out the signed payment the app sends to /payments/verify, the
// Refunds API with its idempotency key, and signed webhooks. `npm run dev:provider` runs it; the
// tests use the same class.

export interface StandInOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Where to send signed webhooks (the service's /payments/webhook); none are sent without it. */
  webhookUrl?: string;
}

export interface StandInOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  status: 'created' | 'paid';
}

export interface StandInPayment {
  id: string;
  orderId: string;
  amount: number;
  method: string;
  status: 'captured' | 'failed';
}

export interface StandInRefund {
  id: string;
  paymentId: string;
  amount: number;
  receipt: string | null;
  notes: Record<string, string>;
  status: 'pending' | 'processed' | 'failed';
  idempotencyKey: string | undefined;
}

/** The signed result of a checkout: what the payer's app posts to /payments/verify. */
export interface CheckoutResult {
  orderId: string;
  paymentId: string;
  signature: string;
}

/**
 * A way the next requests to an API go wrong: `error` answers 500, `refuse` answers 400, `reset`
 * drops the connection unanswered, `slow` does the work but answers after 6 s (past the service's
 * 5 s timeout, as a provider that is slow but not down).
 */
export type Fault = 'error' | 'refuse' | 'reset' | 'slow';
type Api = 'orders' | 'refunds';

const SLOW_MS = 6_000;
const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;

export class ProviderStandIn {
  readonly options: StandInOptions;
  readonly orders: StandInOrder[] = [];
  readonly payments: StandInPayment[] = [];
  readonly refunds: StandInRefund[] = [];
  /** Requests whose caller hung up before the answer came (a timeout on their side). */
  abandonedRequests = 0;
  /** Every refund request received, answered or not (retries included). */
  readonly refundRequests: Array<{ paymentId: string; idempotencyKey: string | undefined }> = [];
  /** `later`: new refunds stay pending until settleRefund(), as the bank's part of a real refund can take days. */
  refundSpeed: 'instant' | 'later' = 'instant';
  /** Called with each new order before it is answered; a test can crash the service here. */
  beforeAnswer: ((order: StandInOrder) => Promise<void> | void) | undefined;
  url = '';
  readonly #faults: Record<Api, Fault[]> = { orders: [], refunds: [] };
  readonly #idempotent = new Map<string, { request: string; refund: StandInRefund }>();
  readonly #server: Server;

  constructor(options: StandInOptions) {
    this.options = options;
    this.#server = createServer((request, response) => void this.#serve(request, response));
  }

  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(port, host, resolve));
    this.url = `http://${host}:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The next `times` requests to that API go wrong this way. */
  failNext(api: Api, fault: Fault, times = 1): void {
    this.#faults[api].push(...Array<Fault>(times).fill(fault));
  }

  /** The payer completes the checkout of an order: a captured payment, its signature, and (when configured) the webhooks. */
  async pay(orderId: string, method = 'upi'): Promise<CheckoutResult> {
    const order = this.orders.find((o) => o.id === orderId);
    if (!order) throw new Error(`no order ${orderId} at the provider stand-in`);
    const payment: StandInPayment = { id: id('pay'), orderId, amount: order.amount, method, status: 'captured' };
    this.payments.push(payment);
    order.status = 'paid';
    await this.#notify('payment.captured', paymentPayload('payment.captured', payment));
    await this.#notify('order.paid', paymentPayload('order.paid', payment));
    return { orderId, paymentId: payment.id, signature: hmacHex(this.options.keySecret, `${orderId}|${payment.id}`) };
  }

  /** The payer's payment of an order fails (a declined card): a payment.failed webhook when configured. */
  async failPayment(orderId: string, method = 'card'): Promise<StandInPayment> {
    const order = this.orders.find((o) => o.id === orderId);
    if (!order) throw new Error(`no order ${orderId} at the provider stand-in`);
    const payment: StandInPayment = { id: id('pay'), orderId, amount: order.amount, method, status: 'failed' };
    this.payments.push(payment);
    await this.#notify('payment.failed', paymentPayload('payment.failed', payment));
    return payment;
  }

  /** A pending refund ends: refund.processed or refund.failed is sent (when configured) and its body returned. */
  async settleRefund(refundId: string, outcome: 'processed' | 'failed'): Promise<string> {
    const refund = this.refunds.find((r) => r.id === refundId);
    if (!refund || refund.status !== 'pending') throw new Error(`no pending refund ${refundId} at the provider stand-in`);
    refund.status = outcome;
    const payload = { refund: { entity: refundEntity(refund) } };
    await this.#notify(`refund.${outcome}`, payload);
    return eventBody(`refund.${outcome}`, payload);
  }

  async #notify(event: string, payload: Record<string, unknown>): Promise<void> {
    if (!this.options.webhookUrl) return;
    const body = eventBody(event, payload);
    await fetch(this.options.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': hmacHex(this.options.webhookSecret, body), 'x-razorpay-event-id': id('evt') },
      body,
    }).catch((error: unknown) => console.error(`webhook ${event} to ${this.options.webhookUrl} failed: ${String(error)}`));
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.on('close', () => {
      if (!response.writableEnded) this.abandonedRequests++;
    });
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      send(response, await this.#route(request, Buffer.concat(chunks).toString('utf8')));
    } catch (error) {
      console.error(error);
      response.destroy();
    }
  }

  async #route(request: IncomingMessage, text: string): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const route = `${request.method ?? 'GET'} ${url.pathname}`;
    const atCheckout = await checkout(this, route, url, text);
    if (atCheckout) return atCheckout;
    const pay = /^POST \/dev\/orders\/([^/]+)\/(pay|fail)$/.exec(route);
    if (pay) {
      const orderId = decodeURIComponent(pay[1]);
      if (!this.orders.some((o) => o.id === orderId)) return { status: 404, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'no such order' } } };
      const method = (JSON.parse(text || '{}') as { method?: string }).method;
      if (pay[2] === 'fail') return { status: 200, body: await this.failPayment(orderId, method) };
      return checkoutSuccess(await this.pay(orderId, method));
    }

    const expected = `Basic ${Buffer.from(`${this.options.keyId}:${this.options.keySecret}`).toString('base64')}`;
    const api: Api | undefined = route === 'POST /v1/orders' ? 'orders' : /^POST \/v1\/payments\/[^/]+\/refund$/.test(route) ? 'refunds' : undefined;
    if (api === 'refunds') this.refundRequests.push({ paymentId: decodeURIComponent(url.pathname.split('/')[3]), idempotencyKey: header(request, 'x-refund-idempotency') });
    const fault = api && this.#faults[api].shift();
    if (fault === 'reset') return { status: 0 };
    if (fault === 'error') return { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'The stand-in was told to fail' } } };
    if (fault === 'refuse') return badRequest('The stand-in was told to refuse');
    if (request.headers.authorization !== expected) return { status: 401, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } } };
    const listed = /^GET \/v1\/payments\/([^/]+)\/refunds$/.exec(route);
    if (listed) {
      const items = this.refunds.filter((refund) => refund.paymentId === decodeURIComponent(listed[1])).map(refundEntity);
      return { status: 200, body: { entity: 'collection', count: items.length, items } };
    }
    const answer = api === 'orders' ? await this.#createOrder(text) : api === 'refunds' ? this.#refund(url.pathname.split('/')[3], request, text) : undefined;
    if (!answer) return { status: 404, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } } };
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    return answer;
  }

  async #createOrder(text: string): Promise<Answer> {
    const input = JSON.parse(text) as Partial<StandInOrder>;
    if (!Number.isInteger(input.amount) || input.amount! < 100 || input.currency !== 'INR' || typeof input.receipt !== 'string' || input.receipt.length > 40) {
      return badRequest('amount (integer paise, at least 100), currency INR and a receipt of at most 40 characters are required');
    }
    const order: StandInOrder = { id: id('order'), amount: input.amount!, currency: 'INR', receipt: input.receipt, notes: input.notes ?? {}, status: 'created' };
    this.orders.push(order);
    await this.beforeAnswer?.(order);
    return {
      status: 200,
      body: { id: order.id, entity: 'order', amount: order.amount, amount_paid: 0, amount_due: order.amount, currency: 'INR', receipt: order.receipt, status: order.status, notes: order.notes, created_at: Math.floor(Date.now() / 1000) },
    };
  }

  #refund(rawPaymentId: string, request: IncomingMessage, text: string): Answer {
    const paymentId = decodeURIComponent(rawPaymentId);
    const key = header(request, 'x-refund-idempotency');
    if (key !== undefined && !/^[A-Za-z0-9_-]{10,}$/.test(key)) return badRequest('The idempotency key must be at least 10 letters, digits, hyphens or underscores');
    const seen = key === undefined ? undefined : this.#idempotent.get(key);
    if (seen) return seen.request === text ? { status: 200, body: refundEntity(seen.refund) } : badRequest('Different request with the same idempotency key has already been processed.');
    const payment = this.payments.find((p) => p.id === paymentId);
    if (!payment || payment.status !== 'captured') return badRequest('The id provided does not exist');
    const input = JSON.parse(text || '{}') as { amount?: number; receipt?: string; notes?: Record<string, string> };
    const refunded = this.refunds.filter((r) => r.paymentId === paymentId && r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
    const amount = input.amount ?? payment.amount - refunded;
    if (!Number.isInteger(amount) || amount < 100) return badRequest('The amount must be at least INR 1.00');
    if (amount > payment.amount - refunded) return badRequest('The refund amount provided is greater than amount captured');
    const status = this.refundSpeed === 'instant' ? 'processed' : 'pending';
    const refund: StandInRefund = { id: id('rfnd'), paymentId, amount, receipt: input.receipt ?? null, notes: input.notes ?? {}, status, idempotencyKey: key };
    this.refunds.push(refund);
    if (key !== undefined) this.#idempotent.set(key, { request: text, refund });
    if (status === 'processed') void this.#notify('refund.processed', { refund: { entity: refundEntity(refund) } });
    return { status: 200, body: refundEntity(refund) };
  }
}

/** HMAC-SHA256 hex: the checkout signature (key secret over `orderId|paymentId`) and the webhook signature (webhook secret over the body). */
export const hmacHex = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

/** A webhook body as Razorpay sends it. */
export function eventBody(event: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ entity: 'event', account_id: 'acc_standin', event, contains: Object.keys(payload), payload, created_at: Math.floor(Date.now() / 1000) });
}

/** The payload of a payment event: the payment, and for order.paid its order. */
export function paymentPayload(event: 'payment.captured' | 'payment.failed' | 'order.paid', payment: Omit<StandInPayment, 'status'>): Record<string, unknown> {
  const entity = {
    id: payment.id,
    entity: 'payment',
    amount: payment.amount,
    currency: 'INR',
    status: event === 'payment.failed' ? 'failed' : 'captured',
    order_id: payment.orderId,
    method: payment.method,
  };
  if (event !== 'order.paid') return { payment: { entity } };
  return { payment: { entity }, order: { entity: { id: payment.orderId, entity: 'order', amount: payment.amount, amount_paid: payment.amount, status: 'paid' } } };
}

function refundEntity(refund: StandInRefund) {
  return {
    id: refund.id,
    entity: 'refund',
    amount: refund.amount,
    currency: 'INR',
    payment_id: refund.paymentId,
    notes: refund.notes,
    receipt: refund.receipt,
    acquirer_data: { arn: null },
    created_at: Math.floor(Date.now() / 1000),
    batch_id: null,
    status: refund.status,
    speed_processed: 'normal',
    speed_requested: 'normal',
  };
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
