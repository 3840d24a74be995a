import { readFileSync } from 'node:fs';
import { badRequest, checkoutSuccess, type Answer } from './provider-answers.ts';
import type { ProviderStandIn } from './provider-stand-in.ts';

// The stand-in's checkouts, where a payer pays (or fails) an order and gets the signed payment the
// app sends to POST /payments/verify: a script for apps in a browser, compatible with the part of
// Razorpay's checkout.js the apps use (provider-checkout-script.js, at the same path as Razorpay's),
// and a page for people trying the flow by hand.

/** Where the stand-in serves its checkout script: the value of RAZORPAY_CHECKOUT_URL is the stand-in's address and this. */
export const CHECKOUT_SCRIPT_PATH = '/v1/checkout.js';
const SCRIPT = readFileSync(new URL('./provider-checkout-script.js', import.meta.url), 'utf8');

/** The stand-in's answer to a checkout request, or undefined for any other request. */
export async function checkout(standIn: ProviderStandIn, route: string, url: URL, text: string): Promise<Answer | undefined> {
  if (route === `GET ${CHECKOUT_SCRIPT_PATH}`) return { status: 200, script: SCRIPT };
  const call = /^(OPTIONS|POST) \/v1\/checkout\/(pay|fail)$/.exec(route);
  if (call) return { ...(call[1] === 'OPTIONS' ? { status: 204 } : await scriptCall(standIn, call[2] as 'pay' | 'fail', text)), cors: true };
  if (route === 'GET /checkout') return { status: 200, html: checkoutPage(standIn.orders.find((o) => o.id === url.searchParams.get('order_id'))) };
  if (route === 'POST /checkout') {
    const form = new URLSearchParams(text);
    const orderId = form.get('order_id') ?? '';
    if (!standIn.orders.some((o) => o.id === orderId)) return { status: 404, html: checkoutPage(undefined) };
    if (form.get('outcome') === 'fail') return { status: 200, html: paidPage(orderId, await standIn.failPayment(orderId)) };
    return { status: 200, html: paidPage(orderId, await standIn.pay(orderId, form.get('method') ?? 'upi')) };
  }
  return undefined;
}

/**
 * The script's Pay and Fail. The key and order it was opened with must be the stand-in's, and an
 * amount, when given, the order's: a stricter check than Razorpay's (which shows the order's
 * amount), so an app that confuses rupees and paise is caught here.
 */
async function scriptCall(standIn: ProviderStandIn, outcome: 'pay' | 'fail', text: string): Promise<Answer> {
  let input: { key_id?: unknown; order_id?: unknown; amount?: unknown; method?: unknown };
  try {
    input = JSON.parse(text) as typeof input;
  } catch {
    return badRequest('The request body must be JSON');
  }
  if (input.key_id !== standIn.options.keyId) return badRequest('The api key provided is invalid');
  const order = standIn.orders.find((o) => o.id === input.order_id);
  if (!order) return badRequest('The id provided does not exist');
  if (input.amount != null && input.amount !== order.amount) return badRequest(`The amount must be the order's: ${order.amount} paise`);
  const method = typeof input.method === 'string' ? input.method : 'upi';
  if (outcome === 'pay') return checkoutSuccess(await standIn.pay(order.id, method));
  // What Razorpay's checkout hands its 'payment.failed' listeners.
  const failed = await standIn.failPayment(order.id, method);
  const error = { code: 'BAD_REQUEST_ERROR', description: 'The payment was declined', source: 'customer', step: 'payment_authorization', reason: 'payment_failed' };
  return { status: 200, body: { error: { ...error, metadata: { order_id: order.id, payment_id: failed.id } } } };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · payment provider stand-in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}</style>
</head><body><h1>${escape(title)}</h1>${body}<p><small>Local stand-in for the payment provider: no money moves.</small></p></body></html>`;

function checkoutPage(order: { id: string; amount: number; status: string } | undefined): string {
  if (!order) return page('Unknown order', '<p>No order with this id was created at this stand-in. Create one with POST /payments/order first.</p>');
  const rupees = (order.amount / 100).toFixed(2);
  return page(
    `Pay ₹${rupees}`,
    `<p>Order <code>${escape(order.id)}</code> (${escape(order.status)}).</p>
<form method="post" action="/checkout">
<input type="hidden" name="order_id" value="${escape(order.id)}">
<label>Method <select name="method"><option>upi</option><option>card</option><option>netbanking</option><option>wallet</option></select></label>
<p><button name="outcome" value="pay">Pay</button><button name="outcome" value="fail">Fail the payment</button></p>
</form>`,
  );
}

/** After the checkout: what to verify, or the payment that failed. */
function paidPage(orderId: string, result: { orderId: string; paymentId: string; signature: string } | { id: string }): string {
  if (!('signature' in result)) {
    return page('Payment failed', `<p>Payment <code>${escape(result.id)}</code> of order <code>${escape(orderId)}</code> failed; a payment.failed webhook was sent if one is configured.</p>`);
  }
  const verify = JSON.stringify({ orderId: result.orderId, paymentId: result.paymentId, signature: result.signature }, null, 2);
  return page('Payment captured', `<p>Send this to <code>POST /payments/verify</code>, as the app would:</p><pre>${escape(verify)}</pre>`);
}
