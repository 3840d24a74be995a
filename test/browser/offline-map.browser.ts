import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser, TILE_HOST } from './browser.ts';

// Without map tiles and without the device's location, the driver app still works: positions on a
// plain background, and a marker the driver drags to where they are.

const web = serverAndBrowser();

test('a driver with no location and no map tiles goes online by dragging their marker on a plain background', async () => {
  const account = await accountOverHttp(web.server, 'DRIVER', 'Sam Driver');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'auto', vehicleNumber: 'KA03XY0001' }, account.token)).status, 200);

  // No geolocation permission, and every tile request fails.
  const context = await phone(web.browser);
  await context.route(`${TILE_HOST}/**`, (route) => route.abort());
  const driver = new Screens(await context.newPage(), 'driver-offline');
  driver.tolerateFailuresFrom(TILE_HOST);
  const page = driver.page;
  await logIn(driver, `${web.server.url}/app/driver`, account);
  await page.getByRole('button', { name: 'Go online' }).click();
  await page.getByText('This device gives no location: drag your marker').waitFor();
  await page.locator('.map.map-offline').waitFor();
  const marker = page.getByRole('button', { name: 'You: drag to move' });
  await marker.waitFor();
  await driver.check('plain-map');

  const box = (await marker.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 - 60, { steps: 8 });
  await page.mouse.up();

  // The dragged position reaches the service (over the realtime channel).
  await eventually(async () => {
    const reply = await http(`${web.server.url}/drivers/me/location`, 'GET', undefined, account.token);
    return reply.status === 200 && reply.body.lon > 77.5946 && reply.body.lat > 12.9716 ? reply.body : undefined;
  }, 'the dragged position at the service');
  await driver.check('dragged');
  await context.close();
});
