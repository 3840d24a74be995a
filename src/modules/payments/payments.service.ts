import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { badRequest, notFound, unavailable } from '../../platform/errors.ts';
import { hmacMatches, type PaymentProvider } from '../../platform/payment-provider.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { ONLINE_PAYMENT_MODES, parseOnlinePaymentMode } from '../../platform/vocabulary.ts';
import type { RidePayments } from '../rides/ride-payments.service.ts';
import * as repository from './payments.repository.ts';
import type { OrderBody, PaymentSession, VerifyBody } from './payments.schemas.ts';

export interface PaymentsDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Absent when RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET are not set: orders and verification answer 503. */
  provider: PaymentProvider | undefined;
  webhookSecret: string | undefined;
  rides: Pick<RidePayments, 'amountDue' | 'recordPayment'>;
  notifications: Pick<NotificationsService, 'record'>;
}

/** What a webhook event means for one order. */
interface ProviderOutcome {
  orderId: string;
  paymentId: string;
  paid: boolean;
  method: string | undefined;
  amount: number | undefined;
}

/**
 * Orders at the provider, and the only code that marks anything paid: after a valid checkout
 * signature or a signed webhook, in one transaction with the ride and the notification.
 */
export class PaymentsService {
  readonly #deps: PaymentsDependencies;

  constructor(deps: PaymentsDependencies) {
    this.#deps = deps;
  }

  /**
   * The session is stored only after the provider created the order, so a crash in between
   * leaves nothing behind here, and an order this service never recorded can never be credited.
   */
  async createOrder(user: AuthUser, body: OrderBody) {
    const provider = this.#provider();
    if (body.rideId !== undefined) {
      const due = await this.#deps.rides.amountDue(user, body.rideId);
      if (due !== body.amountInInr) throw badRequest(`amountInInr must be ${due}: what ride ${body.rideId} owes`, 'AMOUNT_MISMATCH');
    }
    const paymentMode = body.paymentMode ? onlineMode(body.paymentMode) : null;
    const sessionId = `ps_${randomBytes(16).toString('base64url')}`;
    const amount = body.amountInInr * 100;
    const notes: Record<string, string> = { sessionId, userId: String(user.id) };
    if (body.rideId !== undefined) notes.rideId = String(body.rideId);
    if (body.rideSummary) notes.rideSummary = body.rideSummary.slice(0, 256);
    const order = await provider.createOrder({ amount, currency: 'INR', receipt: `rcpt_${sessionId}`, notes });
    const now = this.#deps.clock.now();
    await this.#deps.transactions.run((tx) => repository.insertSession(tx.db, {
      id: sessionId,
      user_id: user.id,
      ride_id: body.rideId ?? null,
      order_id: order.id,
      receipt: `rcpt_${sessionId}`,
      amount,
      currency: 'INR',
      payment_mode: paymentMode,
      ride_summary: body.rideSummary ?? null,
      status: 'pending',
      payment_id: null,
      created_at: now,
      updated_at: now,
    }));
    return { orderId: order.id, amount, currency: 'INR' as const, sessionId, keyId: provider.keyId };
  }

  /** Checks the checkout signature for an order of ours. Verifying twice credits once. */
  async verify(body: VerifyBody): Promise<{ success: true; message: string } | { success: false; code: string; message: string }> {
    const provider = this.#provider();
    const session = await repository.findSessionByOrder(this.#deps.db, body.orderId);
    if (!session) return { success: false, code: 'UNKNOWN_ORDER', message: 'Unknown order: it was not created by this service' };
    if (!provider.isValidPaymentSignature(body.orderId, body.paymentId, body.signature)) {
      return { success: false, code: 'INVALID_SIGNATURE', message: 'Payment signature is invalid' };
    }
    // The mode is a label; an unknown one is dropped rather than failing a real payment.
    const known = body.paymentMode ? (parseOnlinePaymentMode(body.paymentMode) ?? null) : null;
    const credited = await this.#deps.transactions.run((tx) => this.#complete(tx, session, body.paymentId, known));
    return { success: true, message: credited ? 'Payment verified' : 'Payment was already verified' };
  }

  async session(id: string): Promise<PaymentSession> {
    const session = await repository.findSession(this.#deps.db, id);
    if (!session) throw notFound('Payment session not found');
    return {
      sessionId: session.id,
      status: session.status as PaymentSession['status'],
      amount: session.amount,
      currency: session.currency,
      paymentMode: session.payment_mode,
    };
  }

  /**
   * A signed provider event. Each event id is handled once; events may arrive in any order, and a
   * completed session never moves back.
   */
  async webhook(rawBody: string, signature: string | undefined, eventId: string | undefined): Promise<'processed' | 'duplicate' | 'ignored'> {
    const secret = this.#deps.webhookSecret;
    if (!secret) throw unavailable('Payment webhooks are not configured', 'WEBHOOK_NOT_CONFIGURED');
    if (!signature || !hmacMatches(secret, rawBody, signature)) throw badRequest('Webhook signature is invalid', 'INVALID_SIGNATURE');
    let event: ProviderEvent;
    try {
      event = JSON.parse(rawBody) as ProviderEvent;
    } catch {
      throw badRequest('Webhook body is not valid JSON', 'MALFORMED_JSON');
    }
    const outcome = readEvent(event);
    const now = this.#deps.clock.now();
    return this.#deps.transactions.run(async (tx) => {
      if (eventId && !(await repository.recordWebhookEvent(tx.db, eventId, String(event.event), now))) return 'duplicate';
      if (!outcome) return 'ignored';
      const session = await repository.findSessionByOrder(tx.db, outcome.orderId);
      if (!session) return 'ignored';
      if (outcome.amount !== undefined && outcome.amount !== session.amount) {
        this.#deps.log.warn({ orderId: outcome.orderId, eventId }, 'webhook amount differs from the order; ignored');
        return 'ignored';
      }
      if (outcome.paid) {
        await this.#complete(tx, session, outcome.paymentId, outcome.method?.toUpperCase() ?? null);
      } else if ((await repository.failSession(tx.db, session.id, now)) && session.ride_id !== null) {
        await this.#deps.rides.recordPayment(tx, session.ride_id, { paid: false });
      }
      return 'processed';
    });
  }

  /** Session completed, ride PAID, payer notified: all or nothing, and only once. */
  async #complete(tx: Tx, session: repository.SessionRow, paymentId: string, mode: string | null): Promise<boolean> {
    if (!(await repository.completeSession(tx.db, session.id, paymentId, mode, this.#deps.clock.now()))) return false;
    if (session.ride_id !== null) await this.#deps.rides.recordPayment(tx, session.ride_id, { paid: true, reference: paymentId });
    await this.#deps.notifications.record(tx, [{
      userId: session.user_id,
      rideId: session.ride_id,
      eventType: 'PAYMENT_RECEIVED',
      title: 'Payment received',
      message: `We received your payment of ₹${session.amount / 100}${session.ride_id === null ? '' : ` for ride #${session.ride_id}`}.`,
    }]);
    return true;
  }

  #provider(): PaymentProvider {
    if (!this.#deps.provider) throw unavailable('Payments are not configured on this server', 'PAYMENTS_NOT_CONFIGURED');
    return this.#deps.provider;
  }
}

function onlineMode(value: string): string {
  const mode = parseOnlinePaymentMode(value);
  if (!mode) throw badRequest(`paymentMode must be one of ${ONLINE_PAYMENT_MODES.join(', ')} for an online payment`);
  return mode;
}

interface ProviderEntity {
  id?: unknown;
  order_id?: unknown;
  method?: unknown;
  amount?: unknown;
}
interface ProviderEvent {
  event?: unknown;
  payload?: { payment?: { entity?: ProviderEntity }; order?: { entity?: ProviderEntity } };
}

/** payment.captured and order.paid complete an order; payment.failed fails it; anything else is ignored. */
function readEvent(event: ProviderEvent): ProviderOutcome | undefined {
  const payment = event.payload?.payment?.entity;
  const order = event.payload?.order?.entity;
  const paid = event.event === 'payment.captured' || event.event === 'order.paid';
  if (!paid && event.event !== 'payment.failed') return undefined;
  const orderId = event.event === 'order.paid' ? (order?.id ?? payment?.order_id) : payment?.order_id;
  if (typeof orderId !== 'string' || typeof payment?.id !== 'string') return undefined;
  return {
    orderId,
    paymentId: payment.id,
    paid,
    method: typeof payment.method === 'string' ? payment.method : undefined,
    amount: typeof payment.amount === 'number' ? payment.amount : undefined,
  };
}
