import { Type, type Static } from 'typebox';
import { MAX_ORDER_INR } from '../../platform/payment-provider.ts';
import { Nullable, Timestamp } from '../../platform/schemas.ts';
import { ONLINE_PAYMENT_MODES } from '../../platform/vocabulary.ts';

export const SESSION_STATUSES = ['pending', 'completed', 'failed'] as const;

export const OrderBody = Type.Object({
  amountInInr: Type.Integer({ minimum: 1, maximum: MAX_ORDER_INR, description: 'Whole rupees' }),
  rideSummary: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  paymentMode: Type.Optional(Type.Union([Type.String({ maxLength: 20, description: ONLINE_PAYMENT_MODES.join(', ') }), Type.Null()])),
  rideId: Type.Optional(Type.Integer({ minimum: 1, description: 'Your ride this pays for; amountInInr must be what it owes' })),
});
export type OrderBody = Static<typeof OrderBody>;

export const OrderResponse = Type.Object({
  orderId: Type.String({ description: "The provider's order id for its checkout" }),
  amount: Type.Integer({ description: 'Paise (amountInInr × 100)' }),
  currency: Type.Literal('INR'),
  sessionId: Type.String(),
  keyId: Type.String({ description: 'The public key id the checkout needs' }),
});

export const VerifyBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 100 }),
  paymentId: Type.String({ minLength: 1, maxLength: 100 }),
  signature: Type.String({ minLength: 1, maxLength: 200, description: 'HMAC-SHA256 of orderId|paymentId from the checkout' }),
  paymentMode: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
});
export type VerifyBody = Static<typeof VerifyBody>;

export const VerifyResponse = Type.Object({ success: Type.Boolean(), message: Type.String() });
/** A refused verification: the usual error body, plus `success: false` as the spec shows. */
export const VerifyRefusal = Type.Object({
  success: Type.Optional(Type.Literal(false)),
  statusCode: Type.Integer(),
  error: Type.String(),
  code: Type.String(),
  message: Type.String(),
});

export const SessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 100 }) });

export const PaymentSession = Type.Object({
  sessionId: Type.String(),
  status: Type.Enum(SESSION_STATUSES),
  amount: Type.Integer({ description: 'Paise' }),
  currency: Type.String(),
  paymentMode: Nullable(Type.String()),
});
export type PaymentSession = Static<typeof PaymentSession>;

export const WebhookResponse = Type.Object({ status: Type.Enum(['processed', 'duplicate', 'ignored']) });

/**
 * queued: recorded, not yet accepted by the provider (retried until it is); pending: the provider
 * accepted it and the money is on its way; processed: done; failed: the provider turned it down.
 */
export const REFUND_STATUSES = ['queued', 'pending', 'processed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** cancellation: paid more than a cancelled ride's fee; duplicate: a second payment of a paid ride; operator: an operator's refund. */
export const REFUND_REASONS = ['cancellation', 'duplicate', 'operator'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const PaymentRecord = Type.Object({
  id: Type.String({ description: 'The payment session id' }),
  orderId: Type.String(),
  amount: Type.Integer({ description: 'Paise' }),
  currency: Type.String(),
  status: Type.Enum(SESSION_STATUSES),
  paymentId: Nullable(Type.String({ description: "The provider's payment id once paid" })),
  paymentMode: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PaymentRecord = Static<typeof PaymentRecord>;

export const RefundRecord = Type.Object({
  id: Type.Integer(),
  paymentId: Type.String({ description: "The provider's payment the money goes back to" }),
  amount: Type.Integer({ description: 'Paise' }),
  status: Type.Enum(REFUND_STATUSES),
  reason: Type.Enum(REFUND_REASONS),
  note: Nullable(Type.String({ description: "The operator's reason, for an operator's refund" })),
  requestedBy: Nullable(Type.Integer({ description: 'The operator who asked for it' })),
  providerRefundId: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type RefundRecord = Static<typeof RefundRecord>;

/** A ride's money, oldest first: every payment session linked to it and every refund of them. */
export const RidePaymentHistory = Type.Object({
  payments: Type.Array(PaymentRecord),
  refunds: Type.Array(RefundRecord),
});
export type RidePaymentHistory = Static<typeof RidePaymentHistory>;
