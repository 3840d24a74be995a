import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';
import { freePort } from '../../helpers/server-process.ts';

// `npm run dev:provider` as a developer runs it: its own process, the RAZORPAY_* values it prints,
// its checkout page, and the signed webhooks it sends to a service listening on a real port.

/** Starts scripts/dev-provider.ts and reads the address and the RAZORPAY_* values it prints. */
async function startStandIn(port: number, webhookUrl: string): Promise<{ child: ChildProcess; url: string; env: Record<string, string> }> {
  const child = spawn(process.execPath, ['scripts/dev-provider.ts', '--port', String(port), '--webhook-url', webhookUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !output.includes('npm start') && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  const url = /listening at (http:\/\/\S+) /.exec(output)?.[1];
  const env = Object.fromEntries([...output.matchAll(/(RAZORPAY_[A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
  assert.ok(url, `the stand-in printed its address:\n${output}`);
  return { child, url, env };
}


describe('the provider stand-in of npm run dev:provider', () => {
  let t: TestApp;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let rider: TestUser;

  before(async () => {
    // The stand-in's defaults, on a port chosen first: the service must know where the provider is,
    // and the stand-in where the service's webhook is.
    const standInPort = await freePort();
    const razorpay = { keyId: 'rzp_test_standin', keySecret: 'standin_key_secret', apiUrl: `http://127.0.0.1:${standInPort}`, webhookSecret: 'standin_webhook_secret' };
    t = await createTestApp({ razorpay });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    standIn = await startStandIn(standInPort, `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/payments/webhook`);
    assert.deepEqual(standIn.env, {
      RAZORPAY_API_URL: razorpay.apiUrl,
      RAZORPAY_KEY_ID: razorpay.keyId,
      RAZORPAY_KEY_SECRET: razorpay.keySecret,
      RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret,
      RAZORPAY_CHECKOUT_URL: `${razorpay.apiUrl}/v1/checkout.js`,
    }, 'it prints the values the service needs');
    rider = await signUp(t, { role: 'RIDER' });
  });
  after(async () => {
    standIn?.child.kill('SIGTERM');
    if (standIn) await once(standIn.child, 'exit');
    await t.close();
  });

  const sessionStatus = async (sessionId: string) => (await call(t.app, 'GET', `/payments/session/${sessionId}`)).body.status;

  test('its checkout page pays an order and shows what to verify; its webhooks alone complete the payment', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: ride.fare, rideId: ride.id } });
    assertOk(order, 'order');
    const page = await (await fetch(`${standIn.url}/checkout?order_id=${order.body.orderId}`)).text();
    assert.match(page, new RegExp(order.body.orderId));
    assert.match(page, new RegExp(`₹${ride.fare}\\.00`));

    const paid = await (await fetch(`${standIn.url}/checkout`, { method: 'POST', body: new URLSearchParams({ order_id: order.body.orderId, method: 'card', outcome: 'pay' }) })).text();
    const shown = JSON.parse(/<pre>(.*?)<\/pre>/s.exec(paid)![1].replaceAll('&#34;', '"'));
    assert.deepEqual(Object.keys(shown).sort(), ['orderId', 'paymentId', 'signature']);
    // The signed webhooks reached the service before the page answered: paid without a verification.
    assert.equal(await sessionStatus(order.body.sessionId), 'completed');
    const status = await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: rider.token });
    assert.equal(status.body.paymentStatus, 'PAID');
    assert.equal(status.body.paymentReference, shown.paymentId);
    assert.equal((await call(t.app, 'POST', '/payments/verify', { body: shown })).body.message, 'Payment was already verified');
  });

  test('a failed checkout fails the session through its webhook; an unknown order gets a page saying so', async () => {
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: 25 } });
    const failed = await fetch(`${standIn.url}/dev/orders/${order.body.orderId}/fail`, { method: 'POST' });
    assert.equal(failed.status, 200);
    assert.equal(await sessionStatus(order.body.sessionId), 'failed');
    assert.match(await (await fetch(`${standIn.url}/checkout?order_id=order_unknown`)).text(), /Unknown order/);
    assert.equal((await fetch(`${standIn.url}/dev/orders/order_unknown/pay`, { method: 'POST' })).status, 404);
  });

  test('takes the refund of a cancelled paid ride', async () => {
    const ride = await bookRide(t, rider, { paymentMode: 'UPI' });
    const order = await call(t.app, 'POST', '/payments/order', { token: rider.token, body: { amountInInr: ride.fare, rideId: ride.id } });
    const paid = (await (await fetch(`${standIn.url}/dev/orders/${order.body.orderId}/pay`, { method: 'POST' })).json()) as Record<string, string>;
    assert.deepEqual(Object.keys(paid).sort(), ['razorpay_order_id', 'razorpay_payment_id', 'razorpay_signature']);
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: rider.token });
    assert.equal(cancelled.body.refundedAmountInInr, ride.fare);
    const authorization = `Basic ${Buffer.from(`${standIn.env.RAZORPAY_KEY_ID}:${standIn.env.RAZORPAY_KEY_SECRET}`).toString('base64')}`;
    const refundsAtProvider = async () =>
      ((await (await fetch(`${standIn.url}/v1/payments/${paid.razorpay_payment_id}/refunds`, { headers: { authorization } })).json()) as { items: Array<{ amount: number; status: string }> }).items;
    let refunds = await refundsAtProvider();
    for (let waited = 0; refunds.length === 0 && waited < 5000; waited += 20) refunds = await refundsAtProvider();
    assert.deepEqual(refunds.map((r) => [r.amount, r.status]), [[ride.fare * 100, 'processed']]);
  });
});

describe('the command line of npm run dev:provider', () => {
  /** Runs the script until it prints its start command (or exits), then stops it. */
  async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, ['scripts/dev-provider.ts', ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    for (let waited = 0; !output.includes(' npm start\n') && child.exitCode === null && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    if (child.exitCode === null) child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    return { code, output };
  }

  test('--help prints the options and exits 0; an unknown option is refused with them', async () => {
    const help = await run(['--help']);
    assert.equal(help.code, 0, help.output);
    assert.match(help.output, /^Usage: npm run dev:provider/);
    for (const option of ['--port', '--service-url', '--webhook-url', '--no-webhooks', '--start']) assert.ok(help.output.includes(option), option);
    const wrong = await run(['--colour']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.output, /--colour[\s\S]*Usage:/);
    assert.doesNotMatch(wrong.output, /\n\s+at /, 'no stack trace');
  });

  test('the service need not be on 8080: webhooks follow --service-url (or PORT), and the printed command starts the service there', async () => {
    const [standInPort, servicePort] = [await freePort(), await freePort()];
    const byOption = await run(['--port', String(standInPort), '--service-url', `http://127.0.0.1:${servicePort}`]);
    assert.match(byOption.output, new RegExp(`Webhooks go to: +http://127\\.0\\.0\\.1:${servicePort}/payments/webhook`));
    const command = /^(RAZORPAY_\S+ )+(PORT=\d+ )?npm start$/m.exec(byOption.output)?.[0];
    assert.ok(command, byOption.output);
    assert.match(command, new RegExp(`RAZORPAY_CHECKOUT_URL=http://127\\.0\\.0\\.1:${standInPort}/v1/checkout\\.js`));
    assert.match(command, new RegExp(` PORT=${servicePort} npm start$`));

    // PORT is the service's variable, as in its own environment; the stand-in's port is PROVIDER_PORT.
    const byEnvironment = await run([], { PORT: String(servicePort), PROVIDER_PORT: String(standInPort) });
    assert.match(byEnvironment.output, new RegExp(`listening at http://127\\.0\\.0\\.1:${standInPort} `));
    assert.match(byEnvironment.output, new RegExp(`Webhooks go to: +http://127\\.0\\.0\\.1:${servicePort}/payments/webhook`));
  });
});
