import type { Api } from '../api/endpoints.ts';
import type { OrderBody, OrderResponse } from '../api/types.ts';

/** What the provider's checkout hands back after a successful payment. */
interface CheckoutSuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

interface CheckoutOptions {
  key: string;
  order_id: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  prefill: { name: string };
  handler: (response: CheckoutSuccess) => void;
  modal: { ondismiss: () => void };
}

interface Checkout {
  open: () => void;
  on(event: 'payment.failed', listener: (response: { error: { description: string } }) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => Checkout;
  }
}

/**
 * Pays online: the service creates the provider order, the provider's checkout (its script at
 * `checkoutUrl`, Razorpay's checkout.js or the development stand-in's) takes the money, and the
 * service verifies the checkout's signature, which marks the ride paid. Answers the service's word.
 */
export async function payOnline(api: Api, checkoutUrl: string, order: OrderBody, payer: string): Promise<string> {
  const created = await api.payments.order(order);
  const paid = await openCheckout(checkoutUrl, created, payer);
  const verdict = await api.payments.verify({
    orderId: paid.razorpay_order_id || created.orderId,
    paymentId: paid.razorpay_payment_id,
    signature: paid.razorpay_signature,
    paymentMode: order.paymentMode,
  });
  if (!verdict.success) throw new Error(verdict.message);
  return verdict.message;
}

async function openCheckout(checkoutUrl: string, order: OrderResponse, payer: string): Promise<CheckoutSuccess> {
  await loadScript(checkoutUrl);
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('The payment page could not be opened. Try again, or pay in cash.');
  return new Promise((resolve, reject) => {
    // A failed attempt leaves the checkout open for another try; only closing it ends the payment.
    let failure = '';
    const checkout = new Razorpay({
      key: order.keyId,
      order_id: order.orderId,
      amount: order.amount,
      currency: order.currency,
      name: 'Ride',
      description: 'Your ride',
      prefill: { name: payer },
      handler: resolve,
      modal: { ondismiss: () => reject(new Error(failure ? `Payment failed: ${failure}` : 'Payment cancelled: nothing was charged.')) },
    });
    checkout.on('payment.failed', (response) => (failure = response.error.description));
    checkout.open();
  });
}

function loadScript(src: string): Promise<void> {
  if (!src) return Promise.reject(new Error('Online payment is not available right now. Please pay in cash.'));
  if (document.querySelector(`script[src="${src}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error('The payment page could not be reached. Check your connection, or pay in cash.'));
    };
    document.head.append(script);
  });
}
