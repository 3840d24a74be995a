import type { ApiClient } from './api.ts';
import type { PaymentMode } from './api-types.ts';
import type { RideFacts } from './figures.ts';

export type PaymentOutcome = 'cash' | 'online' | 'failed';

/**
 * How simulated riders pay. Cash needs nothing after the trip (the driver collects and the
 * service marks the ride paid at completion); an online payment is a provider round trip.
 */
export interface PaymentStep {
  /** Said in the run's header. */
  readonly description: string;
  /** The mode a rider books with, given whether they would rather pay online. */
  modeFor(paysOnline: boolean): PaymentMode;
  /** After the trip: pays what the rider owes, if they pay online. */
  settle(rider: ApiClient, ride: Pick<RideFacts, 'rideId' | 'fare' | 'paymentMode'>): Promise<PaymentOutcome>;
}

/** Every rider pays cash: the step to use while the service has no payment provider to talk to. */
export const cashPayments: PaymentStep = {
  description: 'cash (no payment provider stand-in configured; riders who would pay online pay cash)',
  modeFor: () => 'CASH',
  settle: async () => 'cash',
};

/**
 * Riders who would pay online pay by UPI through the payment provider stand-in (`npm run
 * dev:provider`) the service is configured with: an order from the service, the stand-in's
 * checkout (its `POST /dev/orders/{id}/pay`, what the checkout page does for a person), then the
 * signed result to POST /payments/verify, as the rider's app would.
 */
export class StandInPayments implements PaymentStep {
  readonly description: string;
  readonly #providerUrl: string;

  constructor(providerUrl: string) {
    this.#providerUrl = providerUrl.replace(/\/+$/, '');
    this.description = `cash, or UPI through the provider stand-in at ${this.#providerUrl}`;
  }

  modeFor(paysOnline: boolean): PaymentMode {
    return paysOnline ? 'UPI' : 'CASH';
  }

  async settle(rider: ApiClient, ride: Pick<RideFacts, 'rideId' | 'fare' | 'paymentMode'>): Promise<PaymentOutcome> {
    if (ride.paymentMode === 'CASH') return 'cash';
    try {
      const order = await rider.order({ amountInInr: ride.fare, rideId: ride.rideId, paymentMode: ride.paymentMode });
      const response = await fetch(`${this.#providerUrl}/dev/orders/${encodeURIComponent(order.orderId)}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'upi' }),
      });
      if (!response.ok) return 'failed';
      const paid = (await response.json()) as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
      const verified = await rider.verify({ orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature, paymentMode: ride.paymentMode });
      return verified.success ? 'online' : 'failed';
    } catch {
      // Counted, not fatal: a payment that did not go through is one of the figures.
      return 'failed';
    }
  }
}
