// What a signed provider webhook means to this service. Razorpay's events nest the entity under
// payload.<kind>.entity; anything this service does not act on reads as undefined.

interface ProviderEntity {
  id?: unknown;
  order_id?: unknown;
  payment_id?: unknown;
  method?: unknown;
  amount?: unknown;
  receipt?: unknown;
}
export interface ProviderEvent {
  event?: unknown;
  payload?: { payment?: { entity?: ProviderEntity }; order?: { entity?: ProviderEntity }; refund?: { entity?: ProviderEntity } };
}

/** A payment of an order: captured (order.paid, payment.captured) or failed (payment.failed). */
export interface PaymentOutcome {
  kind: 'payment';
  orderId: string;
  paymentId: string;
  paid: boolean;
  method: string | undefined;
  amount: number | undefined;
}

/** A refund the provider finished (refund.processed) or gave up on (refund.failed); named by the receipt we sent. */
export interface RefundOutcome {
  kind: 'refund';
  receipt: string;
  refundId: string;
  status: 'processed' | 'failed';
}

export function readEvent(event: ProviderEvent): PaymentOutcome | RefundOutcome | undefined {
  if (event.event === 'refund.processed' || event.event === 'refund.failed') {
    const refund = event.payload?.refund?.entity;
    if (typeof refund?.receipt !== 'string' || typeof refund.id !== 'string') return undefined;
    return { kind: 'refund', receipt: refund.receipt, refundId: refund.id, status: event.event === 'refund.processed' ? 'processed' : 'failed' };
  }
  const payment = event.payload?.payment?.entity;
  const order = event.payload?.order?.entity;
  const paid = event.event === 'payment.captured' || event.event === 'order.paid';
  if (!paid && event.event !== 'payment.failed') return undefined;
  const orderId = event.event === 'order.paid' ? (order?.id ?? payment?.order_id) : payment?.order_id;
  if (typeof orderId !== 'string' || typeof payment?.id !== 'string') return undefined;
  return {
    kind: 'payment',
    orderId,
    paymentId: payment.id,
    paid,
    method: typeof payment.method === 'string' ? payment.method : undefined,
    amount: typeof payment.amount === 'number' ? payment.amount : undefined,
  };
}
