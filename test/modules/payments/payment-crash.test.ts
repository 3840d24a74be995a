import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectDatabase } from '../../../src/db/connect.ts';
import { loadConfig } from '../../../src/config.ts';
import { freshDatabase, smtpSink } from '../../helpers/app.ts';
import { checkoutSignature, FakeRazorpay, KEY_ID, KEY_SECRET, paymentId } from '../../helpers/fake-razorpay.ts';
import { uniqueEmail } from '../../helpers/factories.ts';
import { http, startServer, type ServerProcess } from '../../helpers/server-process.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let provider: FakeRazorpay;
before(async () => {
  database = await freshDatabase();
  provider = await new FakeRazorpay().start();
});
after(async () => {
  await provider.close();
  await database.drop();
});

test('a crash between the provider creating the order and the local write leaves no half state', async () => {
  const smtp = await smtpSink();
  const env = {
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    JWT_SECRET: 'a-test-secret-that-is-at-least-32-bytes-long',
    RAZORPAY_KEY_ID: KEY_ID,
    RAZORPAY_KEY_SECRET: KEY_SECRET,
    RAZORPAY_API_URL: provider.url,
    REDIS_URL: process.env.REDIS_URL,
  };
  let server: ServerProcess = await startServer(env);
  const email = uniqueEmail();
  const mailsBefore = smtp.mails.length;
  await http(`${server.url}/auth/signup/request-otp`, 'POST', { name: 'Pay', email });
  const otp = await smtp.otpFor(email, mailsBefore);
  assert.equal((await http(`${server.url}/auth/signup`, 'POST', { name: 'Pay', email, password: 'password-123', otp })).status, 200);
  const { body: tokens } = await http(`${server.url}/auth/login`, 'POST', { email, password: 'password-123' });

  // The provider creates the order, then the service dies before it hears the answer.
  const crashed = server;
  provider.beforeAnswer = async () => {
    crashed.child.kill('SIGKILL');
    await crashed.exited;
  };
  await assert.rejects(http(`${server.url}/payments/order`, 'POST', { amountInInr: 250 }, tokens.accessToken));
  provider.beforeAnswer = undefined;
  const orphan = provider.orders.at(-1)!;
  assert.equal(orphan.amount, 25_000, 'the provider did create the order');

  server = await startServer(env);
  try {
    const { db } = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: env.JWT_SECRET }).database);
    try {
      assert.equal((await db.selectFrom('payment_sessions').selectAll().execute()).length, 0, 'no session was half written');
    } finally {
      await db.destroy();
    }
    const pay = paymentId();
    const verify = await http(`${server.url}/payments/verify`, 'POST', { orderId: orphan.id, paymentId: pay, signature: checkoutSignature(orphan.id, pay) });
    assert.equal(verify.status, 400, 'an order the service never recorded cannot be credited');
    assert.equal(verify.body.success, false);

    const retry = await http(`${server.url}/payments/order`, 'POST', { amountInInr: 250 }, tokens.accessToken);
    assert.equal(retry.status, 200, 'the payer simply starts again');
    assert.equal((await http(`${server.url}/payments/session/${retry.body.sessionId}`)).body.status, 'pending');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
