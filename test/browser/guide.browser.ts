import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { startGuideStack, type GuideStack } from '../docs/guide-stack.ts';
import { lastScreens, launchChromium, phone, Screens, TILE_HOST } from './browser.ts';

// A newcomer who follows docs/api-guide.md pays online in the rider app on the first try: the
// guide's start command, run as written (the stand-in and the service on ports that are not the
// defaults), serves the rider app with the stand-in's checkout; the rider signs up with the code
// from the service's log (no SMTP_URL), books, sees who is coming, and pays online in Chromium.

let stack: GuideStack;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'guide-browser-'));

before(async () => {
  // Map tiles from the test's own host (the machine has no internet); everything else is the guide's.
  stack = await startGuideStack(dir, { DISPATCH_BATCH_MS: '200', MAP_TILE_URL: `${TILE_HOST}/{z}/{x}/{y}.png` });
  browser = await launchChromium();
});
after(async () => {
  await lastScreens();
  await browser?.close();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The sign-up code the service wrote to its log for this e-mail (no SMTP_URL in the guide's stack). */
function codeFromLog(email: string): string | undefined {
  const lines = stack.log().split('\n').filter((line) => line.includes(`"to":"${email}"`));
  return /sign-up code is (\d{6})/.exec(lines.at(-1) ?? '')?.[1];
}

const ok = async (reply: Promise<{ status: number; body: any }>, what: string) => {
  const { status, body } = await reply;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body;
};

test("the guide's stack: a rider signs up with the code from the log, books, sees the driver's plate and pays online", async () => {
  const { base } = stack;
  // The driver, over HTTP as in the guide.
  const driverEmail = `ravi-${Date.now().toString(36)}@example.com`;
  await ok(http(`${base}/auth/signup/request-otp`, 'POST', { name: 'Ravi', email: driverEmail }), 'driver code');
  const driverCode = await eventually(async () => codeFromLog(driverEmail), 'the driver code in the log');
  await ok(http(`${base}/auth/signup`, 'POST', { name: 'Ravi', email: driverEmail, password: 'another password', otp: driverCode, role: 'DRIVER' }), 'driver sign-up');
  const driver = (await ok(http(`${base}/auth/login`, 'POST', { email: driverEmail, password: 'another password' }), 'driver login')).accessToken as string;
  await ok(http(`${base}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA01AB1234', vehicleModel: 'Swift' }, driver), 'vehicle');
  await ok(http(`${base}/drivers/me/location`, 'PUT', { lat: 12.9806, lon: 77.6066 }, driver), 'online');

  const context = await phone(browser);
  const rider = new Screens(await context.newPage(), 'guide-rider');
  const page = rider.page;
  const riderEmail = `asha-${Date.now().toString(36)}@example.com`;
  await page.goto(`${base}/app/`);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Your name').fill('Asha');
  await page.getByLabel('E-mail').fill(riderEmail);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  // No SMTP_URL: the app says where the code is, rather than "we sent a code".
  await page.getByText(/the code for .* was written to the service's log/).waitFor();
  assert.equal(await page.getByText('We sent a code').count(), 0);
  await rider.check('code-in-the-log');
  await page.getByLabel('Code from the log').fill(await eventually(async () => codeFromLog(riderEmail), 'the rider code in the log'));
  await page.getByLabel('Choose a password').fill('a good password');
  await page.getByRole('button', { name: 'Create account' }).click();

  await page.getByLabel('Pickup', { exact: true }).fill('MG Road');
  await page.getByRole('button', { name: 'MG Road Metro' }).click();
  await page.getByLabel('Drop', { exact: true }).fill('Koramangala');
  await page.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await page.getByRole('radio', { name: /Mini/ }).check();
  await page.getByLabel('Payment').selectOption('UPI');
  await page.getByRole('button', { name: /^Book Mini for/ }).click();
  await page.getByRole('heading', { name: 'Finding a driver' }).waitFor();

  const offer = await eventually(async () => (await http(`${base}/drivers/me/offers`, 'GET', undefined, driver)).body[0], 'the offer', 10_000);
  const accepted = await ok(http(`${base}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driver), 'accept');
  await page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  assert.equal(await page.getByTestId('plate').textContent(), 'KA01AB1234');
  await rider.check('driver-on-the-way');
  const picked = await ok(http(`${base}/rides/status/${accepted.id}`, 'POST', { status: 'PICKED', otp: accepted.startOtp }, driver), 'pick up');
  await ok(http(`${base}/rides/status/${accepted.id}`, 'POST', { status: 'COMPLETED', otp: picked.endOtp }, driver), 'complete');
  await page.getByRole('heading', { name: 'Completed' }).waitFor();

  // Online payment through the stand-in's checkout, as the guide's stack configured it.
  await page.getByRole('button', { name: `Pay ₹${accepted.fare} online` }).click();
  const checkout = page.getByRole('dialog', { name: /^Pay ₹/ });
  await checkout.waitFor();
  await checkout.getByText(`Ride ${accepted.id} from MG Road Metro to Koramangala Forum Mall`, { exact: false }).waitFor();
  await rider.check('checkout');
  await checkout.getByRole('button', { name: /^Pay ₹/ }).click();
  await page.getByText(`Paid ₹${accepted.fare}. Thank you!`).waitFor();
  await rider.check('paid');
  const ride = await ok(http(`${base}/rides/status/${accepted.id}`, 'GET', undefined, driver), 'ride');
  assert.equal(ride.paymentStatus, 'PAID');
  await context.close();
});
