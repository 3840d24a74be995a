import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// A driver who closes the driver app goes offline as the page closes (pagehide sends the offline
// report with fetch keepalive), so a ride booked a second later is offered to nobody instead of
// waiting on a closed app. The service's reconnect grace (10 s) is not what this waits for.

const web = serverAndBrowser();
const AT = { latitude: 12.9846, longitude: 77.6066 };

test('a driver whose app page closes gets no offer a second later', async () => {
  const driver = await accountOverHttp(web.server, 'DRIVER', 'Closing Driver');
  const rider = await accountOverHttp(web.server, 'USER', 'Waiting Rider');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05XY0001' }, driver.token)).status, 200);
  const context = await phone(web.browser, { geolocation: AT, permissions: ['geolocation'] });
  const screens = new Screens(await context.newPage(), 'driver-leaves');
  await logIn(screens, `${web.server.url}/app/driver`, driver);
  await screens.page.getByRole('button', { name: 'Go online' }).click();
  await screens.page.getByText('Waiting for ride offers…').waitFor();
  const location = () => http(`${web.server.url}/drivers/me/location`, 'GET', undefined, driver.token);
  await eventually(async () => ((await location()).status === 200 ? true : undefined), 'the driver online at the service', 10_000);

  const closedAt = Date.now();
  await screens.page.close();
  await eventually(async () => ((await location()).status === 404 ? true : undefined), 'the driver offline', 2_000);
  const booked = await http(
    `${web.server.url}/rides/book`,
    'POST',
    { pickupLocation: 'MG Road Metro', dropLocation: 'Forum Mall', pickupLat: 12.9756, pickupLon: 77.6066, dropLat: 12.9346, dropLon: 77.6113 },
    rider.token,
  );
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  // Several dispatch rounds (200 ms each) pass; the driver is near and would be the one offered.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.deepEqual((await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driver.token)).body, []);
  assert.ok(Date.now() - closedAt < 8_000, 'decided well within the reconnect grace, so the page close did it');
  await context.close();
});
