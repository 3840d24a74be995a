import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startWebServer, type WebServer } from './browser.ts';

// A rider cancels once a driver is on the way: the app asks first, then shows the fee the service charged.

let server: WebServer;
let browser: Browser;

before(async () => {
  server = await startWebServer();
  browser = await launchChromium();
});

after(async () => {
  await lastScreens();
  await browser?.close();
  await server?.stop();
});

test('a rider who cancels after acceptance is asked first and shown the fee the service charged', async () => {
  const riderAccount = await accountOverHttp(server, 'USER', 'Meera Rider');
  const driverAccount = await accountOverHttp(server, 'DRIVER', 'Kiran Driver');
  assert.equal((await http(`${server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05MN4321' }, driverAccount.token)).status, 200);
  assert.equal((await http(`${server.url}/drivers/me/location`, 'PUT', { lat: 12.9806, lon: 77.6066 }, driverAccount.token)).status, 200);

  const context = await phone(browser);
  const rider = new Screens(await context.newPage(), 'rider-cancel');
  const page = rider.page;
  await logIn(rider, `${server.url}/app/`, riderAccount);
  await page.getByLabel('Pickup', { exact: true }).fill('mg road');
  await page.getByRole('button', { name: 'MG Road Metro' }).click();
  await page.getByLabel('Drop', { exact: true }).fill('forum');
  await page.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await page.getByLabel('Payment').selectOption('UPI');
  await page.getByRole('button', { name: /^Book / }).click();
  await page.getByRole('heading', { name: 'Finding a driver' }).waitFor();

  // The driver takes the offer (over HTTP: this test is about the rider's app).
  const offer = await eventually(async () => (await http(`${server.url}/drivers/me/offers`, 'GET', undefined, driverAccount.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driverAccount.token)).status, 200);
  await page.getByRole('heading', { name: 'Driver on the way' }).waitFor();

  await page.getByRole('button', { name: 'Cancel ride' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this ride?' });
  await dialog.waitFor();
  assert.match((await dialog.getByTestId('fee-rule').textContent())!, /cancellation fee applies/);
  await rider.check('asked');
  await dialog.getByLabel('Reason (optional)').fill('Plans changed');
  await dialog.getByRole('button', { name: 'Yes, cancel' }).click();

  await page.getByRole('heading', { name: 'Cancelled' }).waitFor();
  const [ride] = (await http(`${server.url}/rides/history`, 'GET', undefined, riderAccount.token)).body;
  assert.equal(ride.cancelledBy, 'rider');
  assert.ok(ride.cancellationFee > 0, 'a fee once a driver is on the way');
  await page.getByText(`Cancelled by the rider. Cancellation fee: ₹${ride.cancellationFee}.`).waitFor();
  await page.getByRole('button', { name: `Pay ₹${ride.cancellationFee} online` }).waitFor();
  await rider.check('cancelled');

  await page.getByRole('button', { name: 'Book another ride' }).click();
  await page.getByRole('heading', { name: 'Where to?' }).waitFor();
  await context.close();
});
