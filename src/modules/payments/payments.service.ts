import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { badRequest, notFound, unavailable } from '../../platform/errors.ts';
import { hmacMatches, type PaymentProvider } from '../../platform/payment-provider.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { ONLINE_PAYMENT_MODES, parseOnlinePaymentMode } from '../../platform/vocabulary.ts';
import type { RidePayments } from '../rides/ride-payments.service.ts';
import * as repository from './payments.repository.ts';
import type { OrderBody, PaymentSession, RefundReason, RefundStatus, RidePaymentHistory, VerifyBody } from './payments.schemas.ts';
import { readEvent, type ProviderEvent } from './provider-events.ts';
import * as refundsRepository from './refunds.repository.ts';
import type { Refunds } from './refunds.service.ts';

export interface PaymentsDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Absent when RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET are not set: orders and verification answer 503. */
  provider: PaymentProvider | undefined;
  webhookSecret: string | undefined;
  rides: Pick<RidePayments, 'amountDue' | 'recordPaid' | 'recordFailed'>;
  refunds: Pick<Refunds, 'settle' | 'recordOutcome'>;
  notifications: Pick<NotificationsService, 'record'>;
}

/** What crediting a completed payment did: paid the ride (or an order without one), or found it paid already by another payment. */
type Credit = 'credited' | 'duplicate' | 'already-completed';

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
    const credit = await this.#deps.transactions.run((tx) => this.#complete(tx, session, body.paymentId, known));
    const messages: Record<Credit, string> = {
      credited: 'Payment verified',
      'already-completed': 'Payment was already verified',
      duplicate: `Payment verified; ride ${session.ride_id} was already paid, so this payment is being refunded`,
    };
    return { success: true, message: messages[credit] };
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

  /** Every payment session of a ride and every refund of them, oldest first (an operator's view of the ride's money). */
  async historyOf(rideId: number): Promise<RidePaymentHistory> {
    const [sessions, refunds] = await Promise.all([repository.sessionsOfRide(this.#deps.db, rideId), refundsRepository.refundsOfRide(this.#deps.db, rideId)]);
    return {
      payments: sessions.map((session) => ({
        id: session.id,
        orderId: session.order_id,
        amount: session.amount,
        currency: session.currency,
        status: session.status as PaymentSession['status'],
        paymentId: session.payment_id,
        paymentMode: session.payment_mode,
        createdAt: toIso(session.created_at),
        updatedAt: toIso(session.updated_at),
      })),
      refunds: refunds.map((refund) => ({
        id: refund.id,
        paymentId: refund.payment_id,
        amount: refund.amount,
        status: refund.status as RefundStatus,
        reason: refund.reason as RefundReason,
        note: refund.note,
        requestedBy: refund.requested_by,
        providerRefundId: refund.provider_refund_id,
        createdAt: toIso(refund.created_at),
        updatedAt: toIso(refund.updated_at),
      })),
    };
  }

  /** Online payments completed since `since` (the operators' overview). */
  async receivedSince(since: number): Promise<{ count: number; amountInInr: number }> {
    const { count, paise } = await repository.completedSince(this.#deps.db, since);
    return { count, amountInInr: paise / 100 };
  }

  /** Inside an account's erasure: what the payer typed goes; amounts, ids and times stay for accounting. */
  eraseTextOf(tx: Tx, userId: number): Promise<void> {
    return repository.eraseTextOf(tx.db, userId);
  }

  /**
   * A signed provider event. Each event id is handled once; events may arrive in any order, and a
   * completed session never moves back.
   */
  async webhook(rawBody: string, signature: string | undefined, eventId: string | undefined): Promise<'processed' | 'duplicate' | 'ignored'> {
    const secret = this.#deps.webhookSecret;
    if (!secret) throw unavailable('Payment webhooks are not configured', 'WEBHOOK_NOT_CONFIGURED');
    if (!signature || !hmacMatches(secret, rawBody, signature)) throw badRequest('Webhook signature is invalid', 'INVALID_SIGNATURE');
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw badRequest('Webhook body is not valid JSON', 'MALFORMED_JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('Webhook body is not a JSON object', 'MALFORMED_EVENT');
    const event = parsed as ProviderEvent;
    const outcome = readEvent(event);
    const now = this.#deps.clock.now();
    // An event without the provider's id is known by its signed bytes: a redelivery of it is the same body.
    const key = eventId || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
    return this.#deps.transactions.run(async (tx) => {
      if (!(await repository.recordWebhookEvent(tx.db, key, String(event.event), now))) return 'duplicate';
      if (!outcome) return 'ignored';
      if (outcome.kind === 'refund') {
        const refund = await refundsRepository.findRefundByKey(tx.db, outcome.receipt);
        if (!refund) return 'ignored';
        await this.#deps.refunds.recordOutcome(tx, refund, { status: outcome.status, providerRefundId: outcome.refundId });
        if (outcome.status === 'failed') this.#deps.log.error({ refundId: refund.id, rideId: refund.ride_id }, 'the provider failed a refund; an operator must look at it');
        return 'processed';
      }
      const session = await repository.findSessionByOrder(tx.db, outcome.orderId);
      if (!session) return 'ignored';
      if (outcome.amount !== undefined && outcome.amount !== session.amount) {
        this.#deps.log.warn({ orderId: outcome.orderId, eventId }, 'webhook amount differs from the order; ignored');
        return 'ignored';
      }
      if (outcome.paid) {
        await this.#complete(tx, session, outcome.paymentId, outcome.method?.toUpperCase() ?? null);
      } else if ((await repository.failSession(tx.db, session.id, now)) && session.ride_id !== null) {
        await this.#deps.rides.recordFailed(tx, session.ride_id);
      }
      return 'processed';
    });
  }

  /**
   * Session completed and, all or nothing: the ride PAID and the payer notified, or, when another
   * payment paid the ride first (two open orders) or the ride was cancelled meanwhile, what exceeds
   * what the rider owes refunded through the provider.
   */
  async #complete(tx: Tx, session: repository.SessionRow, paymentId: string, mode: string | null): Promise<Credit> {
    if (!(await repository.completeSession(tx.db, session.id, paymentId, mode, this.#deps.clock.now()))) return 'already-completed';
    const ride = session.ride_id === null ? undefined : await this.#deps.rides.recordPaid(tx, session.ride_id, paymentId);
    const duplicate = ride !== undefined && ride.paymentReference !== paymentId;
    if (!duplicate) {
      await this.#deps.notifications.record(tx, [{
        userId: session.user_id,
        rideId: session.ride_id,
        eventType: 'PAYMENT_RECEIVED',
        text: { name: 'paymentReceived', values: { amount: session.amount / 100, ...(session.ride_id === null ? { forRide: 'no' } : { forRide: 'yes', rideId: String(session.ride_id) }) } },
      }]);
    }
    if (ride) await this.#deps.refunds.settle(tx, ride);
    return duplicate ? 'duplicate' : 'credited';
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
