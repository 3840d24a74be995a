import type { Api } from '../api/endpoints.ts';
import type { OrderBody, OrderResponse } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';

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

/** The provider's checkout script could not be loaded (no network, a blocked or misconfigured RAZORPAY_CHECKOUT_URL): no order was made. */
export class CheckoutUnreachable extends Error {}

/**
 * Pays online: the service creates the provider order, the provider's checkout (its script at
 * `checkoutUrl`, Razorpay's checkout.js or the development stand-in's) takes the money, and the
 * service verifies the checkout's signature, which marks the ride paid. Answers the service's word.
 * `description` names what is paid for, in the checkout.
 */
export async function payOnline(api: Api, checkoutUrl: string, order: OrderBody, payer: string, description: string): Promise<string> {
  // The checkout first: an order made for a checkout that then cannot open would stay open at the provider.
  await loadScript(checkoutUrl);
  const created = await api.payments.order(order);
  const paid = await openCheckout(created, payer, description);
  const verdict = await api.payments.verify({
    orderId: paid.razorpay_order_id || created.orderId,
    paymentId: paid.razorpay_payment_id,
    signature: paid.razorpay_signature,
    paymentMode: order.paymentMode,
  });
  if (!verdict.success) throw new Error(verdict.message);
  return verdict.message;
}

async function openCheckout(order: OrderResponse, payer: string, description: string): Promise<CheckoutSuccess> {
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new CheckoutUnreachable(t('checkout.cannotOpen'));
  return new Promise((resolve, reject) => {
    // A failed attempt leaves the checkout open for another try; only closing it ends the payment.
    let failure = '';
    const checkout = new Razorpay({
      key: order.keyId,
      order_id: order.orderId,
      amount: order.amount,
      currency: order.currency,
      name: 'Ride-hailing',
      description,
      prefill: { name: payer },
      handler: resolve,
      modal: { ondismiss: () => reject(new Error(failure ? t('checkout.failed', { reason: failure }) : t('checkout.cancelled'))) },
    });
    checkout.on('payment.failed', (response) => (failure = response.error.description));
    checkout.open();
  });
}

function loadScript(src: string): Promise<void> {
  if (!src) return Promise.reject(new CheckoutUnreachable(t('checkout.unavailable')));
  if (document.querySelector(`script[src="${src}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new CheckoutUnreachable(t('checkout.unreachable')));
    };
    document.head.append(script);
  });
}
