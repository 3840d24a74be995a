import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startWebServer, type WebServer } from './browser.ts';

// What people type reaches other people's screens as text: a driver whose name is markup shows in
// the operator console's live map as that text, and the console makes no element from it.

const OPERATOR = 'ops-markup@example.com';
/** Where the console's map opens: the driver waits in the middle of it. */
const CITY_CENTRE = { lat: 12.9716, lon: 77.5946 };
/** Markup a hostile driver might choose as their name: an element to find, a form, and a redirect. */
const HOSTILE_NAME = '<b id=planted>Ravi</b><form id=phish><input></form><meta http-equiv=refresh content="0;url=/x">';

let server: WebServer;
let browser: Browser;

before(async () => {
  server = await startWebServer({ ADMIN_EMAILS: OPERATOR });
  browser = await launchChromium();
});

after(async () => {
  await lastScreens();
  await browser?.close();
  await server?.stop();
});

test("a driver's name made of markup is shown as text in the live map's tooltip, and creates no element in the console", async () => {
  assert.ok(HOSTILE_NAME.length <= 100, 'a name the sign-up accepts');
  const operator = await accountOverHttp(server, 'ADMIN', 'Priya Operator', OPERATOR);
  const driver = await accountOverHttp(server, 'DRIVER', HOSTILE_NAME);
  assert.equal((await http(`${server.url}/drivers/me/location`, 'PUT', CITY_CENTRE, driver.token)).status, 200);

  const context = await phone(browser);
  const ops = new Screens(await context.newPage(), 'ops-markup');
  const page = ops.page;
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await logIn(ops, `${server.url}/app/ops`, operator);
  await page.getByTestId('map-summary').filter({ hasText: 'In view: 1 driver' }).waitFor();
  const opened = navigations.length;

  // The driver's dot is in the middle of the map: hovering it opens the tooltip.
  const map = page.locator('.leaflet-container');
  await map.scrollIntoViewIfNeeded();
  const box = (await map.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tooltip = page.locator('.leaflet-tooltip');
  await tooltip.filter({ hasText: `${HOSTILE_NAME} (driver ${driver.id})` }).waitFor();
  assert.equal(await tooltip.locator('*').count(), 1, 'the tooltip holds one element: the text');
  assert.equal(await page.locator('#planted, #phish, meta[http-equiv]').count(), 0, 'nothing of the name became an element');
  await ops.check('tooltip');
  assert.deepEqual(navigations.slice(opened), [], 'the console stayed where it was');
  assert.match(page.url(), /\/app\/ops/);
  await context.close();
});
