import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startWebServer, type WebServer } from './browser.ts';

// The operator console's first screens: zones, creating an account, and the audit trail showing it.

const OPERATOR = 'ops-lead@example.com';
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

test('an operator creates a driver account and finds it in the audit trail', async () => {
  const operator = await accountOverHttp(server, 'ADMIN', 'Priya Operator', OPERATOR);
  const context = await phone(browser);
  const ops = new Screens(await context.newPage(), 'ops');
  const page = ops.page;
  await logIn(ops, `${server.url}/app/ops`, operator);
  await page.getByRole('heading', { name: 'Zones and surge' }).waitFor();
  await page.getByText('No zone has riders waiting or drivers free right now.').waitFor();
  await ops.check('zones');

  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByLabel('Name').fill('Nikhil Driver');
  await page.getByLabel('E-mail').fill('nikhil.driver@example.com');
  await page.getByLabel('First password').fill('a first password');
  await page.getByLabel('Role').selectOption('DRIVER');
  await page.getByRole('button', { name: 'Create account' }).click();
  const created = page.getByText(/^Created account \d+: Nikhil Driver \(nikhil\.driver@example\.com\), driver\.$/);
  await created.waitFor();
  const id = /account (\d+)/.exec((await created.textContent())!)![1];
  await ops.check('account-created');

  await page.getByRole('link', { name: 'Audit trail' }).click();
  const row = page.getByRole('row').filter({ hasText: `user.create · user ${id}` });
  await row.waitFor();
  assert.match((await row.textContent())!, new RegExp(`operator ${operator.id}`));
  await ops.check('audit');
  await context.close();
});
