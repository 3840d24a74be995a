import { Type, type Static } from 'typebox';
import { MAX_ORDER_INR } from '../../platform/payment-provider.ts';
import { RidePaymentHistory } from '../payments/payments.schemas.ts';

export const RefundBody = Type.Object({
  amountInInr: Type.Integer({ minimum: 1, maximum: MAX_ORDER_INR, description: 'Whole rupees; at most what was paid online for the ride minus what was refunded' }),
  reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why, for the audit trail and the ride\'s payment history' }),
});
export type RefundBody = Static<typeof RefundBody>;

/** A ride's money after an operator's refund: the total refunded, every payment and every refund. */
export const RideRefunds = Type.Object({
  rideId: Type.Integer(),
  refundedAmountInInr: Type.Integer(),
  ...RidePaymentHistory.properties,
});
export type RideRefunds = Static<typeof RideRefunds>;
