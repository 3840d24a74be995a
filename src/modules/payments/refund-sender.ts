import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PaymentProvider } from '../../platform/payment-provider.ts';
import type { Refunds } from './refunds.service.ts';
import * as repository from './refunds.repository.ts';

/** Every instance looks for refunds due again this often (and once at start). */
export const REFUND_RETRY_INTERVAL_MS = 2_000;
// Longer than the provider client's 5 s timeout, so an attempt still waiting for its answer is never overtaken.
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 10 * 60_000;
const BATCH = 20;

/** How long after attempt number `attempts` (0 = the first) the next one may start. */
export const retryDelay = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** attempts, MAX_RETRY_MS);

export interface RefundSenderDependencies {
  db: Db;
  transactions: Transactions;
  /** Absent when payments are not configured: refunds then wait (none can exist without a provider). */
  provider: PaymentProvider | undefined;
  refunds: Pick<Refunds, 'recordOutcome'>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Takes recorded refunds to the provider: at once after they commit, and again on start and every
 * couple of seconds for those the provider did not take (down, slow, busy), with growing pauses.
 * Each refund is sent with its own idempotency key, so a retry after a lost answer never refunds
 * twice; each attempt is claimed first, so two instances never send one at the same moment.
 */
export class RefundSender {
  readonly #deps: RefundSenderDependencies;
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #scanning = false;
  #stopped = false;
  #warned = false;

  constructor(deps: RefundSenderDependencies) {
    this.#deps = deps;
  }

  start(): void {
    this.#track(this.#retryDue());
    this.#timer = setInterval(() => this.#track(this.#retryDue()), REFUND_RETRY_INTERVAL_MS).unref();
  }

  /** Stops looking and waits for attempts under way, so none is cut off by a closing database. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#stopped = true;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Refunds that just committed; once stopping, they wait for the next start. */
  sendSoon(ids: readonly number[]): void {
    if (this.#stopped) return;
    for (const id of ids) this.#track(this.#attempt(id, 0));
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#deps.log.warn({ err: error }, 'refund attempt not completed; it will be retried'));
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  async #retryDue(): Promise<void> {
    if (this.#scanning) return;
    this.#scanning = true;
    try {
      for (const { id, attempts } of await repository.dueRefunds(this.#deps.db, this.#deps.clock.now(), BATCH)) await this.#attempt(id, attempts);
    } finally {
      this.#scanning = false;
    }
  }

  async #attempt(id: number, attempts: number): Promise<void> {
    const { provider, transactions, clock, log } = this.#deps;
    if (!provider) {
      if (!this.#warned) log.warn('refunds are waiting: the payment provider is not configured (RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET)');
      this.#warned = true;
      return;
    }
    const now = clock.now();
    if (!(await transactions.run((tx) => repository.claimAttempt(tx.db, id, attempts, now, now + retryDelay(attempts))))) return;
    const refund = (await repository.findRefund(this.#deps.db, id))!;
    const result = await provider.refund({
      paymentId: refund.payment_id,
      amount: refund.amount,
      idempotencyKey: refund.idempotency_key,
      notes: { rideId: String(refund.ride_id), refundId: String(refund.id), reason: refund.reason },
    });
    if (result.ok) {
      await transactions.run((tx) => this.#deps.refunds.recordOutcome(tx, refund, { status: result.refund.status, providerRefundId: result.refund.id }));
      if (result.refund.status === 'failed') log.error({ refundId: id, rideId: refund.ride_id }, 'the provider failed a refund; an operator must look at it');
    } else if (!result.retry) {
      await transactions.run((tx) => this.#deps.refunds.recordOutcome(tx, refund, { status: 'failed', error: result.reason }));
      log.error({ refundId: id, rideId: refund.ride_id, reason: result.reason }, 'the provider refused a refund; an operator must look at it');
    } else {
      await transactions.run((tx) => repository.noteAttemptFailed(tx.db, id, result.reason, clock.now()));
      log.warn({ refundId: id, attempt: attempts + 1, reason: result.reason, retryInMs: retryDelay(attempts) }, 'refund not taken by the provider; will retry');
    }
  }
}
