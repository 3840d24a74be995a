import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messages as kn } from '../../web/src/i18n/kn.ts';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, phone, Screens, serverAndBrowser } from './browser.ts';
import { assertNoEnglish } from './no-english.ts';

// Issue 33: a driver whose phone speaks Kannada signs in, goes online and receives an offer, and no
// screen on the way shows English; accepting it leads to the pickup, in Kannada too.

const web = serverAndBrowser();
const AT = { latitude: 12.9846, longitude: 77.6066 };
const PLATE = 'KA05XY0002';

test('the Kannada driver app receives an offer with no English on the screen', async () => {
  const driver = await accountOverHttp(web.server, 'DRIVER', 'Manjunath');
  const rider = await accountOverHttp(web.server, 'USER', 'Kavya');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'auto', vehicleNumber: PLATE }, driver.token)).status, 200);
  const context = await phone(web.browser, { locale: 'kn-IN', geolocation: AT, permissions: ['geolocation'] });
  const screens = new Screens(await context.newPage(), 'driver-kn');
  const d = screens.page;
  const screen = async (name: string) => {
    await screens.check(name);
    await assertNoEnglish(d, name, ['Manjunath', 'Kavya', PLATE]);
  };

  await d.goto(`${web.server.url}/app/driver`);
  await d.getByRole('heading', { name: kn['auth.logIn'] }).waitFor();
  assert.equal(await d.evaluate(() => (globalThis as any).document.documentElement.lang), 'kn');
  await screen('log-in');
  await d.getByLabel(kn['auth.email']).fill(driver.email);
  await d.getByLabel(kn['auth.password']).fill(driver.password);
  await d.getByRole('button', { name: kn['auth.logIn'] }).last().click();
  await d.getByRole('heading', { name: kn['drive.offline'] }).waitFor();
  await screen('offline');
  await d.getByRole('button', { name: kn['drive.goOnline'] }).click();
  await d.getByText(kn['drive.waitingOffers']).waitFor();
  await eventually(async () => ((await http(`${web.server.url}/drivers/me/location`, 'GET', undefined, driver.token)).status === 200 ? true : undefined), 'the driver online', 10_000);
  await screen('online');

  const booked = await http(
    `${web.server.url}/rides/book`,
    'POST',
    { pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall', pickupLat: 12.9756, pickupLon: 77.6066, dropLat: 12.9346, dropLon: 77.6113, rideType: 'auto' },
    rider.token,
  );
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  const offer = d.getByRole('article').filter({ hasText: kn['offer.title'].split(':')[0] });
  await offer.waitFor();
  await d.getByRole('timer').waitFor();
  await screen('offer');
  await offer.getByRole('button', { name: kn['offer.accept'] }).click();
  await d.getByRole('heading', { name: kn['trip.pickUp'].replace('{name}', 'Kavya') }).waitFor();
  await screen('to-pickup');
  await context.close();
});
