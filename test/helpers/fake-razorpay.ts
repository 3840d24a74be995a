import { randomBytes } from 'node:crypto';
import { eventBody, hmacHex, paymentPayload, ProviderStandIn } from '../../scripts/provider-stand-in.ts';

// Tests talk to the provider through the same stand-in `npm run dev:provider` runs, over real HTTP.

export const KEY_ID = 'rzp_test_key';
export const KEY_SECRET = 'rzp_test_secret_value';
export const WEBHOOK_SECRET = 'rzp_webhook_secret_value';

/** The provider stand-in with the test credentials; the tests deliver webhooks themselves. */
export class FakeRazorpay extends ProviderStandIn {
  constructor() {
    super({ keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET });
  }
}

/** The signature Razorpay's checkout hands the client after a successful payment. */
export const checkoutSignature = (orderId: string, paymentId: string, secret = KEY_SECRET) => hmacHex(secret, `${orderId}|${paymentId}`);

export const webhookSignature = (body: string, secret = WEBHOOK_SECRET) => hmacHex(secret, body);

/** A payment id the provider never issued: enough for verification (which never asks the provider), not for a refund. */
export const paymentId = () => `pay_${randomBytes(7).toString('hex')}`;

/** A Razorpay webhook body for one payment of an order. */
export const webhookEvent = (event: 'payment.captured' | 'payment.failed' | 'order.paid', orderId: string, payId: string, amount: number): string =>
  eventBody(event, paymentPayload(event, { id: payId, orderId, amount, method: 'upi' }));
