import { randomBytes } from 'node:crypto';
import type { Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import { moneyOf, type RideMoney, type RidePayments } from '../rides/ride-payments.service.ts';
import type { RideRow } from '../rides/rides.repository.ts';
import * as payments from './payments.repository.ts';
import type { RefundReason } from './payments.schemas.ts';
import * as repository from './refunds.repository.ts';

/** Refunds just recorded, and the ride's row with them counted (undefined when there were none). */
export interface Recorded {
  refunds: repository.RefundRow[];
  ride: RideRow | undefined;
}

interface Request {
  reason: RefundReason;
  note: string | null;
  requestedBy: number | null;
}

/**
 * Decides refunds of ride payments and records them, each in the transaction of its cause: a paid
 * ride cancelled (what was paid beyond the fee), a second payment of a paid ride (all of it), an
 * operator's refund. Every path first locks the ride's row, so two of them never both refund the
 * same money.
 */
export class Refunds {
  readonly #rides: Pick<RidePayments, 'lock' | 'recordRefunded'>;
  readonly #notifications: Pick<NotificationsService, 'record'>;
  readonly #clock: Clock;
  readonly #events: DomainEventsDispatcher;

  /** `events`: where new refunds are announced (`refund.recorded`, the sender takes them to the provider). */
  constructor(deps: { rides: Pick<RidePayments, 'lock' | 'recordRefunded'>; notifications: Pick<NotificationsService, 'record'>; clock: Clock; events: DomainEventsDispatcher }) {
    this.#rides = deps.rides;
    this.#notifications = deps.notifications;
    this.#clock = deps.clock;
    this.#events = deps.events;
  }

  /**
   * In a cancellation's unit (`ride.moving`): the cancelling update has locked the ride. Answers the ride's row when
   * it refunded. A refund an operator's cancellation caused names that operator.
   */
  readonly onRideCancelled = async (tx: Tx, ride: RideRow, operator: AuthUser | undefined): Promise<RideRow | undefined> =>
    (await this.settle(tx, moneyOf(ride), operator?.id ?? null)).ride;

  /**
   * Refunds whatever the ride's payments exceed what the rider owes and was not refunded yet. Call
   * with the ride locked in this transaction (after recording a payment, or in its cancellation).
   */
  async settle(tx: Tx, ride: RideMoney, requestedBy: number | null = null): Promise<Recorded> {
    // A payment of the ride makes it PAID in the same transaction: without one (and unless the rider
    // paid the driver in cash, so any online payment is surplus) there is nothing to look up.
    if (ride.paymentReference === null && !ride.paidInCash) return { refunds: [], ride: undefined };
    const { sessions, refunds } = await this.#moneyOf(tx, ride.id);
    const excess = paidOf(sessions) - ride.owedInr * 100 - refundedOf(refunds);
    if (excess <= 0) return { refunds: [], ride: undefined };
    const reason = ride.status === 'CANCELLED' ? 'cancellation' : 'duplicate';
    return this.#refund(tx, ride, sessions, refunds, excess, { reason, note: null, requestedBy });
  }

  /** An operator's refund of part or all of what was paid for the ride and not refunded yet. */
  async byOperator(tx: Tx, rideId: number, amountInInr: number, note: string, operatorId: number): Promise<Recorded> {
    const ride = await this.#rides.lock(tx, rideId);
    if (!ride) throw notFound(`Ride ${rideId} not found`);
    const { sessions, refunds } = await this.#moneyOf(tx, rideId);
    const refundable = paidOf(sessions) - refundedOf(refunds);
    if (amountInInr * 100 > refundable) {
      throw conflict(`At most ₹${refundable / 100} of ride ${rideId} can be refunded: what was paid online minus what was refunded`, 'REFUND_EXCEEDS_PAYMENTS');
    }
    return this.#refund(tx, ride, sessions, refunds, amountInInr * 100, { reason: 'operator', note, requestedBy: operatorId });
  }

  /**
   * What the provider said of a refund (its answer, or a refund event); a refund it turned down no
   * longer counts on the ride. False when the refund had already moved past this.
   */
  async recordOutcome(tx: Tx, refund: repository.RefundRow, outcome: { status: 'pending' | 'processed' | 'failed'; providerRefundId?: string; error?: string }): Promise<boolean> {
    const moved = await repository.setRefundOutcome(
      tx.db,
      refund.id,
      { status: outcome.status, ...(outcome.providerRefundId ? { provider_refund_id: outcome.providerRefundId } : {}), ...(outcome.error ? { last_error: outcome.error.slice(0, 500) } : {}) },
      this.#clock.now(),
    );
    if (!moved) return false;
    if (outcome.status === 'failed') await this.#rides.recordRefunded(tx, refund.ride_id, -refund.amount / 100);
    return true;
  }

  async #moneyOf(tx: Tx, rideId: number) {
    const sessions = (await payments.sessionsOfRide(tx.db, rideId)).filter((session) => session.status === 'completed' && session.payment_id !== null);
    const refunds = (await repository.refundsOfRide(tx.db, rideId)).filter((refund) => refund.status !== 'failed');
    return { sessions, refunds };
  }

  /** Spreads `amount` paise over the ride's payments (the one that paid the ride last) and records one refund per payment. */
  async #refund(tx: Tx, ride: RideMoney, sessions: payments.SessionRow[], refunds: repository.RefundRow[], amount: number, request: Request): Promise<Recorded> {
    const now = this.#clock.now();
    const order = [...sessions].sort((a, b) => Number(a.payment_id === ride.paymentReference) - Number(b.payment_id === ride.paymentReference) || b.updated_at - a.updated_at);
    const created: repository.RefundRow[] = [];
    let left = amount;
    for (const session of order) {
      const available = session.amount - refundedOf(refunds.filter((refund) => refund.session_id === session.id));
      const take = Math.min(available, left);
      if (take <= 0) continue;
      created.push(
        await repository.insertRefund(tx.db, {
          ride_id: ride.id,
          session_id: session.id,
          payment_id: session.payment_id!,
          amount: take,
          reason: request.reason,
          note: request.note,
          requested_by: request.requestedBy,
          status: 'queued',
          attempts: 0,
          idempotency_key: `rfnd_${randomBytes(16).toString('base64url')}`,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        }),
      );
      left -= take;
      if (left === 0) break;
    }
    const row = await this.#rides.recordRefunded(tx, ride.id, amount / 100);
    await this.#notifications.record(tx, created.map((refund): NewNotification => ({
      userId: sessions.find((session) => session.id === refund.session_id)!.user_id,
      rideId: ride.id,
      eventType: 'PAYMENT_REFUNDED',
      text: { name: 'refundSent', values: { amount: refund.amount / 100, rideId: String(ride.id), why: request.reason } },
    })));
    await this.#events.emit(tx, 'refund.recorded', { refundIds: created.map((refund) => refund.id) });
    return { refunds: created, ride: row };
  }
}

const paidOf = (sessions: readonly payments.SessionRow[]) => sessions.reduce((sum, session) => sum + session.amount, 0);
const refundedOf = (refunds: readonly repository.RefundRow[]) => refunds.reduce((sum, refund) => sum + refund.amount, 0);
