import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { messages as kn } from '../../web/src/i18n/kn.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';
import { assertNoEnglish } from './no-english.ts';

// A rider shares a ride under way from the rider app; the link opens a page of its own on a phone,
// without an account, showing the driver and the vehicle, and says so once the rider stops sharing.
// On a phone set to Kannada the page is in Kannada (issue 33), whatever the rider app of that
// browser remembers.

const web = serverAndBrowser();
const NEAR_MG_ROAD = { lat: 12.9806, lon: 77.6066 };
const TRIP = { pickupLat: 12.9756, pickupLon: 77.6067, dropLat: 12.9352, dropLon: 77.6245, pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall' };

test("a rider's sharing link opens a phone-sized page with the driver and the vehicle, until the rider stops sharing", async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Sharer');
  const driver = await accountOverHttp(web.server, 'DRIVER', 'Kiran Rao');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05SH1234', vehicleModel: 'Tata Tiago' }, driver.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', NEAR_MG_ROAD, driver.token)).status, 200);
  assert.equal((await http(`${web.server.url}/rides/book`, 'POST', TRIP, riderAccount.token)).status, 200);
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driver.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driver.token)).status, 200);

  const rider = new Screens(await (await phone(web.browser)).newPage(), 'rider-share');
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await rider.page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  await rider.page.getByRole('button', { name: 'Share trip' }).click();
  const url = await rider.page.getByTestId('share-url').inputValue();
  assert.match(url, /\/share\/[A-Za-z0-9_-]{43}$/);
  await rider.check('shared');

  const family = new Screens(await (await phone(web.browser)).newPage(), 'share-page');
  await family.page.goto(url);
  await family.page.getByText(/Kiran is on the way to the pickup — about \d+ min/).waitFor();
  await family.page.getByText('KA05SH1234, Tata Tiago').waitFor();
  assert.equal(await family.page.getByText('Meera').count(), 0, "the rider's name is not on the page");
  await family.check('on-the-way');

  const grandmother = new Screens(await (await phone(web.browser, { locale: 'kn-IN' })).newPage(), 'share-page-kn');
  const g = grandmother.page;
  // This browser's rider app was last shown in Hindi: the share page still follows the browser, and leaves that alone.
  // (Written from /health, a page of the same origin that runs no app: the rider app itself, opened here,
  // would settle its own language after load and could overwrite what the test wrote.)
  await g.goto(`${web.server.url}/health`);
  await g.evaluate(() => (globalThis as any).localStorage.setItem('ride-hailing.language', 'hi'));
  await g.goto(url);
  await g.getByRole('heading', { name: kn['sharePage.title'] }).waitFor();
  await g.getByText(/^Kiran ಪಿಕಪ್ ಕಡೆಗೆ ಬರುತ್ತಿದ್ದಾರೆ — ಸುಮಾರು \d+ ನಿಮಿಷ$/).waitFor();
  assert.equal(await g.evaluate(() => (globalThis as any).document.documentElement.lang as string), 'kn');
  await grandmother.check('on-the-way');
  await assertNoEnglish(g, 'share page in Kannada', ['Kiran', 'KA05SH1234', 'Tata', 'Tiago']);
  assert.equal(await g.evaluate(() => (globalThis as any).localStorage.getItem('ride-hailing.language') as string | null), 'hi');

  await rider.page.getByRole('button', { name: 'Stop sharing' }).click();
  await rider.page.getByRole('button', { name: 'Share trip' }).waitFor();
  family.expectAnswer(404, new URL(`${url}.json`).pathname);
  await family.page.reload();
  await family.page.getByText(/This link has ended/).waitFor();
  await family.check('ended');
});
