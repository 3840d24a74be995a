import type { Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { Refunds } from '../payments/refunds.service.ts';
import type { AuditTrail } from './audit.ts';
import type { RefundBody, RideRefunds } from './refunds.schemas.ts';

/** Operators' refunds: through the same path as automatic ones (recorded, then sent to the provider), audited together. */
export class AdminRefunds {
  readonly #transactions: Transactions;
  readonly #refunds: Pick<Refunds, 'byOperator'>;
  readonly #payments: Pick<PaymentsService, 'historyOf'>;
  readonly #audit: AuditTrail;

  constructor(deps: { transactions: Transactions; refunds: Pick<Refunds, 'byOperator'>; payments: Pick<PaymentsService, 'historyOf'>; audit: AuditTrail }) {
    this.#transactions = deps.transactions;
    this.#refunds = deps.refunds;
    this.#payments = deps.payments;
    this.#audit = deps.audit;
  }

  async refund(actor: Actor, rideId: number, body: RefundBody): Promise<RideRefunds> {
    const refundedAmountInInr = await this.#transactions.run(async (tx) => {
      const { refunds, ride } = await this.#refunds.byOperator(tx, rideId, body.amountInInr, body.reason, actor.id);
      const after = ride!.refunded_amount;
      await this.#audit.record(tx, {
        actor,
        action: 'ride.refund',
        target: { type: 'ride', id: rideId },
        before: { refundedAmountInInr: after - body.amountInInr },
        after: { refundedAmountInInr: after, reason: body.reason, refunds: refunds.map((refund) => ({ id: refund.id, paymentId: refund.payment_id, amount: refund.amount })) },
      });
      return after;
    });
    return { rideId, refundedAmountInInr, ...(await this.#payments.historyOf(rideId)) };
  }
}
