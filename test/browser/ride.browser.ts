import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { phone, Screens, serverAndBrowser } from './browser.ts';

// A rider and a driver, each in their own browser, take a whole ride through the two apps against
// a real server: sign-up with the mailed code, the offer pushed to the driver, the driver's
// positions moving on the rider's map, both codes, completion, rating, then the other screens.

/** MG Road Metro, a known place of the rider app's search. */
const PICKUP = { latitude: 12.9756, longitude: 77.6066 };
/** About a kilometre north of it, where the driver starts. */
const START = { latitude: 12.9846, longitude: 77.6066 };

const web = serverAndBrowser();

async function signUp(screens: Screens, path: string, name: string): Promise<string> {
  const { page } = screens;
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(4).toString('hex')}@example.com`;
  await page.goto(`${web.server.url}${path}`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await screens.check('log-in');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('E-mail').fill(email);
  const mailsBefore = web.server.smtp.mails.length;
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const code = await web.server.smtp.otpFor(email, mailsBefore);
  await page.getByLabel('Code from the e-mail').fill(code);
  await page.getByLabel('Choose a password').fill('a good password');
  await screens.check('sign-up-code');
  await page.getByRole('button', { name: 'Create account' }).click();
  return email;
}

/** The rider's driver marker's screen position, as Leaflet placed it. */
const driverMarker = (page: Page) => page.locator('.pin-driver').getAttribute('style');

async function waitForMove(page: Page, before: string | null): Promise<string | null> {
  await page.waitForFunction((previous) => (globalThis as any).document.querySelector('.pin-driver')?.getAttribute('style') !== previous, before);
  return driverMarker(page);
}

test('a rider and a driver complete a whole ride through the apps', async () => {
  const riderContext = await phone(web.browser);
  const driverContext = await phone(web.browser, { geolocation: START, permissions: ['geolocation'] });
  const rider = new Screens(await riderContext.newPage(), 'rider');
  const driver = new Screens(await driverContext.newPage(), 'driver');
  const r = rider.page;
  const d = driver.page;

  await signUp(rider, '/app/', 'Asha Rider');
  await r.getByRole('heading', { name: 'Where to?' }).waitFor();
  await rider.check('book');

  // The driver signs up, adds a vehicle and goes online where the device says they are.
  driver.expectAnswer(404, '/drivers/me/profile');
  await signUp(driver, '/app/driver', 'Ravi Driver');
  await d.getByRole('heading', { name: 'Your vehicle' }).waitFor();
  await d.getByLabel('Registration number').fill('KA01AB1234');
  await d.getByRole('button', { name: 'Save vehicle' }).click();
  await d.getByText('Vehicle saved.').waitFor();
  // Approval is not required here (DRIVER_APPROVAL_REQUIRED's default): nobody tells the driver to wait for it.
  await d.getByText('You get ride offers as soon as you go online.').waitFor();
  assert.equal(await d.getByText(/approve/i).count(), 0, 'no word of approval');
  await driver.check('vehicle');
  await d.getByRole('link', { name: 'Drive' }).click();
  await d.getByRole('button', { name: 'Go online' }).click();
  await d.getByText('Your location comes from this device.').waitFor();
  await d.getByText('Waiting for ride offers…').waitFor();
  await driver.check('online');

  // The rider picks both ends from the search, sees a price per ride type, and books.
  await r.getByLabel('Pickup', { exact: true }).fill('MG Road');
  await r.getByRole('button', { name: 'MG Road Metro' }).click();
  await r.getByLabel('Drop', { exact: true }).fill('Koramangala');
  await r.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await r.getByRole('radio', { name: /Mini/ }).check();
  await r.getByLabel('Payment').selectOption('CASH');
  await r.getByText('how the price is made').waitFor();
  assert.equal(await r.getByRole('radio').count(), 5, 'a price for each ride type');
  await rider.check('estimate');
  await r.getByRole('button', { name: /^Book Mini for/ }).click();
  await r.getByRole('heading', { name: 'Finding a driver' }).waitFor();
  const startCode = (await r.getByTestId('start-code').textContent())!.trim();
  assert.match(startCode, /^\d{4}$/);
  await rider.check('finding-driver');

  // The offer is pushed to the driver, who accepts it before the countdown ends.
  const offer = d.getByRole('article').filter({ hasText: 'New ride' });
  await offer.waitFor();
  await d.getByRole('timer').waitFor();
  await driver.check('offer');
  await offer.getByRole('button', { name: 'Accept' }).click();
  // By the rider's name, though the accept answer does not carry it.
  await d.getByRole('heading', { name: 'Pick up Asha Rider' }).waitFor();
  assert.match((await d.getByRole('link', { name: /Directions to the pickup/ }).getAttribute('href'))!, /destination=12\.9756,77\.6066/);
  await driver.check('to-pickup');

  // The rider follows the driver coming: each new position moves the marker and the ETA.
  await r.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  // Who is coming, to check before getting in: the driver's name, the vehicle and its plate.
  await r.getByRole('heading', { name: 'Your driver' }).waitFor();
  await r.getByText('Ravi Driver', { exact: true }).waitFor();
  assert.equal(await r.getByTestId('plate').textContent(), 'KA01AB1234');
  await r.locator('.pin-driver').waitFor();
  let position = await driverMarker(r);
  const firstEta = await r.getByTestId('eta').textContent();
  for (const step of [0.006, 0.003, 0.0005]) {
    await driverContext.setGeolocation({ latitude: PICKUP.latitude + step, longitude: PICKUP.longitude });
    position = await waitForMove(r, position);
  }
  assert.notEqual(await r.getByTestId('eta').textContent(), firstEta, 'the ETA follows the driver');
  await rider.check('driver-coming');

  // Pickup with the start code the rider reads out; then the end code.
  await d.getByLabel("Rider's start code").fill(startCode);
  await d.getByRole('button', { name: 'Start the ride' }).click();
  await d.getByRole('heading', { name: 'Drive to the drop' }).waitFor();
  await r.getByRole('heading', { name: 'On the trip' }).waitFor();
  const endCode = (await r.getByTestId('end-code').textContent())!.trim();
  await rider.check('on-trip');
  await driver.check('to-drop');
  await driverContext.setGeolocation({ latitude: 12.9346, longitude: 77.6113 });
  await d.getByLabel("Rider's end code").fill(endCode);
  await d.getByRole('button', { name: 'Complete the ride' }).click();
  await d.getByText(/Ride completed: .*Collect it in cash\./).waitFor();
  // The signed receipt, with the driver's part of the fare.
  await d.getByTestId('receipt').getByText(/^Yours: ₹[\d.,]+ \(80 % of the fare\); platform fee ₹/).waitFor();
  // Stars, as the rider rates.
  await d.locator('.stars label').nth(4).click();
  await d.getByRole('button', { name: 'Send rating' }).click();
  await d.getByText('You rated your rider 5 of 5.').waitFor();
  await driver.check('completed');

  // The rider has paid in cash, and rates the driver.
  await r.getByRole('heading', { name: 'Completed' }).waitFor();
  await r.getByTestId('receipt').getByRole('link', { name: 'download the signed receipt' }).waitFor();
  await r.getByText(/^Paid ₹\d+/).waitFor();
  await r.getByText('4 of 5', { exact: true }).waitFor();
  await r.locator('.stars label').nth(4).click();
  await r.getByLabel('Comment (optional)').fill('Smooth and on time');
  await rider.check('rating');
  await r.getByRole('button', { name: 'Send rating' }).click();
  await r.getByText('Thanks! You rated this ride 5 out of 5.').waitFor();
  await rider.check('rated');

  // Earnings today, history, settings and notifications.
  await d.getByRole('link', { name: 'Earnings' }).click();
  await d.getByText('1 ride completed today', { exact: false }).waitFor();
  assert.match((await d.getByTestId('earnings-total').textContent())!, /^₹\d+/);
  assert.equal(await d.getByTestId('earnings-week').textContent(), await d.getByTestId('earnings-total').textContent());
  await driver.check('earnings');

  await r.getByRole('link', { name: 'History' }).click();
  await r.getByText(/Completed · rated 5\/5/).waitFor();
  await rider.check('history');
  await r.getByRole('link', { name: 'Settings' }).click();
  await r.getByLabel('Preferred vehicle').selectOption('sedan');
  await r.getByRole('button', { name: 'Save settings' }).click();
  await r.getByText('Settings saved.').waitFor();
  await rider.check('settings');
  await r.getByRole('link', { name: /^Notifications [1-9]\d* unread$/ }).click();
  await r.getByRole('heading', { name: /Ride completed/ }).first().waitFor();
  await rider.check('notifications');
  await r.getByRole('button', { name: 'Mark all read' }).click();
  await r.getByRole('link', { name: 'Notifications 0 unread' }).waitFor();

  await riderContext.close();
  await driverContext.close();
});
