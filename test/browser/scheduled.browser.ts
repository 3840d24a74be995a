import assert from 'node:assert/strict';
import { test } from 'node:test';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// Rides booked ahead through the apps: the rider books for later with the date-time picker and sees the
// time on the ride, the driver finds it under Upcoming and takes it, the operator sees it counted on
// Live and its time in Rides.

const OPERATOR = 'ops-scheduled@example.com';
const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR });
/** Near MG Road Metro, where the rider is picked up. */
const NEAR_MG_ROAD = { latitude: 12.9806, longitude: 77.6066 };

/** A datetime-local value (the browser's local time, which is the test process's) two days from now at 05:30. */
function twoDaysAt0530(): { input: string; instant: Date } {
  const day = new Date(Date.now() + 2 * 86_400_000);
  day.setHours(5, 30, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { input: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}T05:30`, instant: day };
}

test('a rider books for later; the driver takes it from Upcoming; the operator sees it in the overview and when it is booked for', async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Rider');
  const driverAccount = await accountOverHttp(web.server, 'DRIVER', 'Kiran Driver');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA03SC0303' }, driverAccount.token)).status, 200);
  const { input, instant } = twoDaysAt0530();

  const riderContext = await phone(web.browser);
  const rider = new Screens(await riderContext.newPage(), 'rider-scheduled');
  const r = rider.page;
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await r.getByLabel('Pickup', { exact: true }).fill('mg road');
  await r.getByRole('button', { name: 'MG Road Metro' }).click();
  await r.getByLabel('Drop', { exact: true }).fill('forum');
  await r.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await r.getByRole('radio', { name: /Mini/ }).check();
  await r.getByLabel('When').selectOption('later');
  await r.getByLabel('Pickup time').fill(input);
  await rider.check('book-later');
  await r.getByLabel('Payment').selectOption('CASH');
  await r.getByRole('button', { name: /^Book / }).click();
  await r.getByTestId('scheduled-at').waitFor();
  const [booked] = (await http(`${web.server.url}/rides/active`, 'GET', undefined, riderAccount.token)).body;
  assert.equal(booked.scheduledAt, instant.toISOString(), 'booked for the time picked');
  await r.getByText('We will look for a driver 20 minutes before your time.', { exact: false }).waitFor();
  await rider.check('booked-ahead');

  const driverContext = await phone(web.browser, { geolocation: NEAR_MG_ROAD, permissions: ['geolocation'] });
  const driver = new Screens(await driverContext.newPage(), 'driver-upcoming');
  const d = driver.page;
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', { lat: NEAR_MG_ROAD.latitude, lon: NEAR_MG_ROAD.longitude }, driverAccount.token)).status, 200);
  await d.getByRole('link', { name: 'Upcoming' }).click();
  const take = d.getByRole('button', { name: `Take ride ${booked.id}` });
  await take.waitFor();
  await driver.check('upcoming');
  await take.click();
  await d.getByLabel('Rides you took').locator(`[data-ride="${booked.id}"]`).waitFor();
  assert.equal((await http(`${web.server.url}/rides/status/${booked.id}`, 'GET', undefined, riderAccount.token)).body.driverId, driverAccount.id);
  await driver.check('taken');

  const operator = await accountOverHttp(web.server, 'ADMIN', 'Ops Lead', OPERATOR);
  const opsContext = await phone(web.browser);
  const ops = new Screens(await opsContext.newPage(), 'ops-scheduled');
  await logIn(ops, `${web.server.url}/app/ops`, operator);
  await ops.page.locator('.figure').filter({ hasText: 'Booked ahead' }).filter({ hasText: '1 (1 taken)' }).waitFor();
  await ops.page.getByRole('link', { name: 'Rides' }).click();
  await ops.page.getByLabel('Rides found').locator('li').filter({ hasText: `Ride ${booked.id}` }).getByTestId('scheduled-at').waitFor();
  await ops.check('rides-scheduled');
  await opsContext.close();
  await riderContext.close();
  await driverContext.close();
});
