import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// Stops and a changed destination through the apps: the rider books with a stop on the way and its
// price shown, changes the destination once a driver is coming (the quote shown, then confirmed),
// and the driver's app shows the stop list, drives to the next stop and marks it reached; the
// operators' console shows both on the ride.

const OPERATOR = 'stops-operator@example.com';
const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR });
/** Near MG Road Metro, where the rider is picked up. */
const NEAR_MG_ROAD = { latitude: 12.9806, longitude: 77.6066 };

test('a rider books with a stop and changes the destination; the driver sees the stops and marks one reached', async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Nila Rider');
  const driverAccount = await accountOverHttp(web.server, 'DRIVER', 'Arun Driver');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA03ST0303' }, driverAccount.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', { lat: NEAR_MG_ROAD.latitude, lon: NEAR_MG_ROAD.longitude }, driverAccount.token)).status, 200);

  const riderContext = await phone(web.browser);
  const rider = new Screens(await riderContext.newPage(), 'rider-stops');
  const r = rider.page;
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await r.getByLabel('Pickup', { exact: true }).fill('mg road');
  await r.getByRole('button', { name: 'MG Road Metro' }).click();
  await r.getByRole('button', { name: 'Add a stop' }).click();
  await r.getByLabel('Stop 1', { exact: true }).fill('lalbagh');
  await r.getByRole('button', { name: 'Lalbagh Botanical Garden' }).click();
  await r.getByLabel('Drop', { exact: true }).fill('forum');
  await r.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await r.getByRole('radio', { name: /Mini/ }).check();
  const breakdown = r.getByLabel('Price breakdown');
  await breakdown.getByText('Stops (1)').waitFor();
  await rider.check('book-with-stop');
  await r.getByLabel('Payment').selectOption('CASH');
  await r.getByRole('button', { name: /^Book / }).click();
  await r.getByRole('heading', { name: 'Finding a driver' }).waitFor();
  const [booked] = (await http(`${web.server.url}/rides/active`, 'GET', undefined, riderAccount.token)).body;
  assert.deepEqual(booked.stops.map((stop: { place: string }) => stop.place), ['Lalbagh Botanical Garden']);

  // A driver takes it (over HTTP: the driver's app comes in below).
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driverAccount.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driverAccount.token)).status, 200);
  await r.getByRole('heading', { name: 'Driver on the way' }).waitFor();

  // The rider sends the ride on to HSR Layout: the quote first, nothing changed, then confirmed.
  await r.getByRole('button', { name: 'Change destination' }).click();
  const change = r.getByLabel('Change destination');
  await change.getByLabel('New destination', { exact: true }).fill('hsr');
  await change.getByRole('button', { name: 'HSR Layout' }).click();
  const go = change.getByRole('button', { name: /^Go to HSR Layout for ₹[\d,]+$/ });
  await go.waitFor();
  const quoted = Number((await go.textContent())!.replace(/[^\d]/g, ''));
  assert.equal((await http(`${web.server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token)).body.dropLocation, 'Koramangala Forum Mall', 'a quote changes nothing');
  await rider.check('destination-quote');
  await go.click();
  await change.waitFor({ state: 'hidden' });
  const changed = (await http(`${web.server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token)).body;
  assert.deepEqual([changed.dropLocation, changed.fare], ['HSR Layout', quoted]);

  // The driver's app: the new drop, the stop list, the next stop and its button once the rider is on board.
  const driverContext = await phone(web.browser, { geolocation: NEAR_MG_ROAD, permissions: ['geolocation'] });
  const driver = new Screens(await driverContext.newPage(), 'driver-stops');
  const d = driver.page;
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  await d.getByText('HSR Layout').first().waitFor();
  const stops = d.getByLabel('Stops');
  await stops.getByText('Lalbagh Botanical Garden — next').waitFor();
  await d.getByLabel("Rider's start code").fill(booked.startOtp);
  await d.getByRole('button', { name: 'Start the ride' }).click();
  await d.getByRole('heading', { name: 'Drive to stop 1: Lalbagh Botanical Garden' }).waitFor();
  await driver.check('next-stop');
  await d.getByRole('button', { name: 'Reached stop 1' }).click();
  await stops.getByText(/^Lalbagh Botanical Garden — reached /).waitFor();
  await d.getByRole('heading', { name: 'Drive to the drop' }).waitFor();
  const reached = (await http(`${web.server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token)).body;
  assert.notEqual(reached.stops[0].reachedAt, null);
  // The rider's app hears the mark.
  await r.getByLabel('Stops').getByText(/^Lalbagh Botanical Garden — reached /).waitFor();
  await driver.check('stop-reached');

  const operator = await accountOverHttp(web.server, 'ADMIN', 'Devi Operator', OPERATOR);
  const opsContext = await phone(web.browser);
  const ops = new Screens(await opsContext.newPage(), 'ops-stops');
  await logIn(ops, `${web.server.url}/app/ops#/rides/${booked.id}`, operator);
  await ops.page.getByRole('heading', { name: `Ride ${booked.id}` }).waitFor();
  await ops.page.getByLabel('Stops').getByText(/^Lalbagh Botanical Garden — reached /).waitFor();
  await ops.page.getByText(new RegExp(`^to HSR Layout at .+: ₹${booked.fare} → ₹${quoted}$`)).waitFor();
  await ops.check('ride-with-stops');
  await riderContext.close();
  await driverContext.close();
  await opsContext.close();
});
