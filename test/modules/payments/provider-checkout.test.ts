import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkoutSignature, FakeRazorpay, KEY_ID, KEY_SECRET } from '../../helpers/fake-razorpay.ts';

// The stand-in's checkout script for apps in a browser (scripts/provider-checkout-script.js, served
// at /v1/checkout.js like Razorpay's) and the two calls it makes from the app's page. The browser
// side runs in test/browser/payment.browser.ts.

describe("the provider stand-in's checkout script", () => {
  let provider: FakeRazorpay;
  let order: { id: string; amount: number };

  before(async () => {
    provider = await new FakeRazorpay().start();
    const created = await fetch(`${provider.url}/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}` },
      body: JSON.stringify({ amount: 18_000, currency: 'INR', receipt: 'rcpt_checkout_script' }),
    });
    order = (await created.json()) as { id: string; amount: number };
  });
  after(() => provider.close());

  const attempt = (outcome: 'pay' | 'fail', body: Record<string, unknown>) =>
    fetch(`${provider.url}/v1/checkout/${outcome}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:8080' }, body: JSON.stringify(body) });

  test('is served as a script that defines Razorpay, where Razorpay serves checkout.js', async () => {
    const reply = await fetch(`${provider.url}/v1/checkout.js`);
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers.get('content-type')), /^text\/javascript/);
    assert.match(await reply.text(), /window\.Razorpay = Razorpay/);
  });

  test("an app's page, another origin, may call it", async () => {
    const preflight = await fetch(`${provider.url}/v1/checkout/pay`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(String(preflight.headers.get('access-control-allow-headers')), /content-type/);
    const refused = await attempt('pay', { key_id: 'rzp_test_other', order_id: order.id });
    assert.equal(refused.headers.get('access-control-allow-origin'), '*', 'refusals are readable by the page too');
  });

  test('pays with the key and order it was opened with, and signs the payment as Razorpay does', async () => {
    const reply = await attempt('pay', { key_id: KEY_ID, order_id: order.id, amount: order.amount, method: 'card' });
    assert.equal(reply.status, 200);
    const paid = (await reply.json()) as Record<string, string>;
    assert.equal(paid.razorpay_order_id, order.id);
    assert.equal(paid.razorpay_signature, checkoutSignature(order.id, paid.razorpay_payment_id));
    assert.deepEqual(provider.payments.find((payment) => payment.id === paid.razorpay_payment_id), { id: paid.razorpay_payment_id, orderId: order.id, amount: 18_000, method: 'card', status: 'captured' });
  });

  test("a declined attempt answers what Razorpay hands its 'payment.failed' listeners", async () => {
    const reply = await attempt('fail', { key_id: KEY_ID, order_id: order.id, method: 'upi' });
    assert.equal(reply.status, 200);
    const { error } = (await reply.json()) as { error: { reason: string; description: string; metadata: { order_id: string; payment_id: string } } };
    assert.equal(error.reason, 'payment_failed');
    assert.equal(error.metadata.order_id, order.id);
    assert.equal(provider.payments.find((payment) => payment.id === error.metadata.payment_id)?.status, 'failed');
  });

  test('refuses another key, an unknown order, and an amount that is not the order\'s (rupees for paise)', async () => {
    const paymentsBefore = provider.payments.length;
    for (const [body, description] of [
      [{ key_id: 'rzp_test_other', order_id: order.id }, /api key/],
      [{ key_id: KEY_ID, order_id: 'order_unknown' }, /does not exist/],
      [{ key_id: KEY_ID, order_id: order.id, amount: 180 }, /18000 paise/],
    ] as const) {
      const reply = await attempt('pay', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(((await reply.json()) as { error: { description: string } }).error.description, description);
    }
    assert.equal(provider.payments.length, paymentsBefore, 'nothing was paid');
  });
});
