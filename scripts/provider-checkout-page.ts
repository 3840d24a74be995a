// The stand-in's checkout for people trying the payment flow in a browser: one page to pay (or
// fail) an order, one that shows what the app would send to POST /payments/verify.

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · payment provider stand-in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}</style>
</head><body><h1>${escape(title)}</h1>${body}<p><small>Local stand-in for the payment provider: no money moves.</small></p></body></html>`;

export function checkoutPage(order: { id: string; amount: number; status: string } | undefined): string {
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
export function paidPage(orderId: string, result: { orderId: string; paymentId: string; signature: string } | { id: string }): string {
  if (!('signature' in result)) {
    return page('Payment failed', `<p>Payment <code>${escape(result.id)}</code> of order <code>${escape(orderId)}</code> failed; a payment.failed webhook was sent if one is configured.</p>`);
  }
  const verify = JSON.stringify({ orderId: result.orderId, paymentId: result.paymentId, signature: result.signature }, null, 2);
  return page('Payment captured', `<p>Send this to <code>POST /payments/verify</code>, as the app would:</p><pre>${escape(verify)}</pre>`);
}
