import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { messages as hi } from '../../web/src/i18n/hi.ts';
import { messages as opsHi } from '../../web/src/i18n/ops-hi.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, phone, Screens, serverAndBrowser } from './browser.ts';
import { assertNoEnglish } from './no-english.ts';

// Issue 33: an operator whose browser speaks Hindi works the console, and none of its main screens
// shows English (the checker of ride-hindi.browser.ts). At the end the operator picks English in the
// console's Settings: it applies at once and is saved, so the next sign-in on a Hindi browser gets it.

const OPERATOR = 'ops-hindi@example.com';
const NAMES = ['Priya Operator', 'Ravi Driver', 'Asha Rider', 'KA01AB1234', 'IN-MVAG-2025'];

const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR, DRIVER_APPROVAL_REQUIRED: 'true' });

const lang = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.lang as string);

const ok = async <T>(reply: Promise<{ status: number; body: T }>, what: string): Promise<T> => {
  const { status, body } = await reply;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body;
};

test('an operator works the console in Hindi with no English on its main screens', async () => {
  const { server, browser } = web;
  const operator = await accountOverHttp(server, 'ADMIN', 'Priya Operator', OPERATOR);
  const driver = await accountOverHttp(server, 'DRIVER', 'Ravi Driver');
  await ok(http(`${server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA01AB1234' }, driver.token), 'vehicle');
  const rider = await accountOverHttp(server, 'USER', 'Asha Rider');
  const ride = await ok(
    http(`${server.url}/rides/book`, 'POST', { pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall', pickupLat: 12.9756, pickupLon: 77.6066, dropLat: 12.9346, dropLon: 77.6113, paymentMode: 'CASH' }, rider.token),
    'book',
  );
  await ok(http(`${server.url}/rides/${ride.id}/complaints`, 'POST', { category: 'app', message: 'ऐप दस मिनट तक कोई ड्राइवर नहीं दिखा रहा था।' }, rider.token), 'complaint');

  const context = await phone(browser, { locale: 'hi-IN', viewport: { width: 1280, height: 900 } });
  const ops = new Screens(await context.newPage(), 'ops-hi');
  const page = ops.page;
  const screen = async (name: string) => {
    await ops.check(name);
    await assertNoEnglish(page, name, NAMES);
  };
  const open = async (link: string, heading = link) => {
    await page.getByRole('navigation', { name: hi['shell.mainNav'] }).getByRole('link', { name: link, exact: true }).click();
    await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
  };

  // Sign-in, in the browser's language.
  await page.goto(`${server.url}/app/ops`);
  await page.getByRole('heading', { name: hi['auth.logIn'] }).waitFor();
  assert.equal(await lang(page), 'hi');
  await screen('log-in');
  await page.getByLabel(hi['auth.email']).fill(operator.email);
  await page.getByLabel(hi['auth.password']).fill(operator.password);
  await page.getByRole('button', { name: hi['auth.logIn'] }).last().click();

  // Live: the figures, the map, its legend and summary, the zones.
  await page.getByRole('heading', { name: opsHi['ops.live.title'], level: 2 }).waitFor();
  await page.getByRole('heading', { name: opsHi['ops.zones.title'] }).waitFor();
  await page.getByTestId('map-summary').filter({ hasText: `${opsHi['ops.live.summary'].split(':')[0]}:` }).waitFor();
  await page.getByText(opsHi['ops.live.driversList']).click();
  await screen('live');

  await open(opsHi['ops.nav.rides']);
  await page.getByRole('button', { name: opsHi['ops.search'] }).click();
  await page.getByRole('link', { name: `सवारी ${ride.id}` }).click();
  await page.getByRole('heading', { name: `सवारी ${ride.id}`, level: 2 }).waitFor();
  await page.getByText(`यात्री ${rider.id} ने बुक की`).waitFor();
  await screen('ride');

  await open(opsHi['ops.nav.users']);
  await page.getByRole('button', { name: opsHi['ops.search'] }).click();
  await page.getByRole('button', { name: 'Asha Rider को ब्लॉक करें' }).waitFor();
  await screen('accounts');

  await open(opsHi['ops.nav.drivers'], opsHi['ops.drivers.approvalTitle']);
  const applicant = page.locator(`[data-driver="${driver.id}"]`);
  await applicant.getByText(opsHi['ops.approval.pending']).waitFor();
  await applicant.getByText('Ravi Driver के दस्तावेज़').click();
  await applicant.getByText(opsHi['ops.documents.none']).waitFor();
  await screen('drivers');

  await open(opsHi['ops.nav.complaints']);
  await page.getByRole('heading', { name: `शिकायत`, exact: false }).first().waitFor();
  await page.getByRole('button', { name: /^शिकायत \d+ निपटाएँ$/ }).waitFor();
  await screen('complaints');

  await open(opsHi['ops.nav.incidents']);
  await page.getByText(opsHi['ops.incidents.none']).waitFor();
  await screen('incidents');

  await open(opsHi['ops.nav.deletions']);
  await page.getByText(opsHi['ops.deletions.none']).waitFor();
  await screen('deletions');

  await open(opsHi['ops.nav.pricing']);
  await page.getByRole('button', { name: opsHi['ops.pricing.save'] }).waitFor();
  await screen('pricing');

  await open(opsHi['ops.nav.compliance']);
  await page.getByRole('button', { name: opsHi['ops.compliance.check'] }).click();
  await page.getByText(/IN-MVAG-2025 से जाँची गईं/).waitFor();
  await screen('compliance');

  // English, picked in Settings: at once, and saved for the next sign-in on a Hindi browser.
  await open(opsHi['ops.nav.settings']);
  await screen('settings');
  await page.getByLabel(hi['language.label']).selectOption('en');
  await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
  assert.equal(await lang(page), 'en');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live', exact: true }).waitFor();
  await context.close();

  const again = await phone(browser, { locale: 'hi-IN' });
  const next = await again.newPage();
  await next.goto(`${server.url}/app/ops`);
  await next.getByLabel(hi['auth.email']).fill(operator.email);
  await next.getByLabel(hi['auth.password']).fill(operator.password);
  await next.getByRole('button', { name: hi['auth.logIn'] }).last().click();
  await next.getByRole('heading', { name: 'Live', level: 2 }).waitFor();
  assert.equal(await lang(next), 'en', "the saved choice wins over the browser's language");
  await again.close();
});
