import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startProviderStandIn, startWebServer, type ProviderStandIn, type WebServer } from './browser.ts';

// A rider pays a completed ride online through the payment provider's checkout in the browser:
// the development stand-in (`npm run dev:provider`), whose checkout script the service hands the
// app (RAZORPAY_CHECKOUT_URL, as the stand-in prints it). Closing the checkout charges nothing, a
// declined attempt leaves it open for another, and the paid ride reaches the app from the service.

let provider: ProviderStandIn;
let server: WebServer;
let browser: Browser;

before(async () => {
  provider = await startProviderStandIn();
  assert.match(provider.env.RAZORPAY_CHECKOUT_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1\/checkout\.js$/);
  server = await startWebServer(provider.env);
  browser = await launchChromium();
});

after(async () => {
  await lastScreens();
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

const ok = async (reply: Promise<{ status: number; body: any }>, what: string) => {
  const { status, body } = await reply;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body;
};

test('a rider pays a completed ride online through the provider checkout and sees it paid', async () => {
  const riderAccount = await accountOverHttp(server, 'USER', 'Nisha Rider');
  const driver = await accountOverHttp(server, 'DRIVER', 'Arjun Driver');
  await ok(http(`${server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA03CD5678' }, driver.token), 'vehicle');
  await ok(http(`${server.url}/drivers/me/location`, 'PUT', { lat: 12.9806, lon: 77.6066 }, driver.token), 'position');
  const booked = await ok(
    http(`${server.url}/rides/book`, 'POST', { pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall', pickupLat: 12.9756, pickupLon: 77.6066, dropLat: 12.9346, dropLon: 77.6113, paymentMode: 'UPI' }, riderAccount.token),
    'book',
  );

  const context = await phone(browser);
  const rider = new Screens(await context.newPage(), 'rider-pay');
  const page = rider.page;
  await logIn(rider, `${server.url}/app/`, riderAccount);
  await page.getByRole('heading', { name: 'Finding a driver' }).waitFor();

  // The driver takes the ride and completes it (over HTTP: this test is about the rider's payment).
  const offer = await eventually(async () => (await http(`${server.url}/drivers/me/offers`, 'GET', undefined, driver.token)).body[0], 'an offer to the driver');
  await ok(http(`${server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driver.token), 'accept');
  await ok(http(`${server.url}/rides/status/${booked.id}`, 'POST', { status: 'PICKED', otp: booked.startOtp }, driver.token), 'pick up');
  await ok(http(`${server.url}/rides/status/${booked.id}`, 'POST', { status: 'COMPLETED', otp: booked.endOtp }, driver.token), 'complete');
  await page.getByRole('heading', { name: 'Completed' }).waitFor();

  const payOnline = page.getByRole('button', { name: `Pay ₹${booked.fare} online` });
  const checkout = page.getByRole('dialog', { name: /^Pay ₹/ });
  const paymentStatus = async () => (await ok(http(`${server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token), 'ride')).paymentStatus;
  const unpaid = await paymentStatus();
  assert.notEqual(unpaid, 'PAID');

  // Closing the checkout charges nothing.
  await payOnline.click();
  await checkout.waitFor();
  assert.equal(await checkout.getByRole('heading').textContent(), `Pay ₹${booked.fare}.00`);
  await rider.check('checkout');
  await checkout.getByRole('button', { name: 'Cancel' }).click();
  await page.getByText('Payment cancelled: nothing was charged.').waitFor();
  assert.equal(await paymentStatus(), unpaid);
  await rider.check('checkout-closed');

  // A declined attempt keeps the checkout open; the next attempt pays.
  await payOnline.click();
  await checkout.getByLabel('Method').selectOption('card');
  await checkout.getByRole('button', { name: 'Fail the payment' }).click();
  await checkout.getByText('The payment failed: The payment was declined. Try again, or cancel.').waitFor();
  await rider.check('checkout-declined');
  await checkout.getByRole('button', { name: /^Pay ₹/ }).click();
  await checkout.waitFor({ state: 'hidden' });

  // Paid shows once the service says so (ride.updated after the verified payment).
  await page.getByText(`Paid ₹${booked.fare}. Thank you!`).waitFor();
  const ride = await ok(http(`${server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token), 'ride');
  assert.equal(ride.paymentStatus, 'PAID');
  assert.match(ride.paymentReference, /^pay_/);
  await rider.check('paid');
  await context.close();
});

test('when the checkout cannot be reached, the rider pays the driver in cash instead', async () => {
  // A checkout script nobody serves: the shape of a misconfigured RAZORPAY_CHECKOUT_URL, or no network.
  const unreachable = await startWebServer({ ...provider.env, RAZORPAY_CHECKOUT_URL: 'http://127.0.0.1:9/v1/checkout.js' });
  try {
    const riderAccount = await accountOverHttp(unreachable, 'USER', 'Meera Rider');
    const driver = await accountOverHttp(unreachable, 'DRIVER', 'Kiran Driver');
    const booked = await ok(
      http(`${unreachable.url}/rides/book`, 'POST', { pickupLocation: 'MG Road Metro', dropLocation: 'Forum Mall', pickupLat: 12.9756, pickupLon: 77.6066, dropLat: 12.9346, dropLon: 77.6113, paymentMode: 'UPI' }, riderAccount.token),
      'book',
    );
    const context = await phone(browser);
    const rider = new Screens(await context.newPage(), 'rider-cash-instead');
    rider.tolerateFailuresFrom('http://127.0.0.1:9/');
    const page = rider.page;
    await logIn(rider, `${unreachable.url}/app/`, riderAccount);
    await page.getByRole('heading', { name: 'Finding a driver' }).waitFor();
    await ok(http(`${unreachable.url}/rides/status/${booked.id}`, 'POST', { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token), 'accept');
    await ok(http(`${unreachable.url}/rides/status/${booked.id}`, 'POST', { status: 'PICKED', otp: booked.startOtp }, driver.token), 'pick up');
    await ok(http(`${unreachable.url}/rides/status/${booked.id}`, 'POST', { status: 'COMPLETED', otp: booked.endOtp }, driver.token), 'complete');
    await page.getByRole('heading', { name: 'Completed' }).waitFor();
    await page.getByRole('button', { name: `Pay ₹${booked.fare} online` }).click();
    await page.getByText('The payment page could not be reached. You can try again, or pay your driver in cash.').waitFor();
    await rider.check('checkout-unreachable');
    await page.getByRole('button', { name: `Pay ₹${booked.fare} in cash instead` }).click();
    await page.getByText(`Paid ₹${booked.fare} in cash to your driver.`).waitFor();
    const ride = await ok(http(`${unreachable.url}/rides/status/${booked.id}`, 'GET', undefined, driver.token), 'ride');
    assert.deepEqual([ride.paymentMode, ride.paymentStatus], ['CASH', 'PAID'], 'the driver sees a cash ride, paid');
    await rider.check('paid-in-cash');
    await context.close();
  } finally {
    await unreachable.stop();
  }
});
