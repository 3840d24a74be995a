import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phone, serverAndBrowser } from './browser.ts';

// Each app names its own icon, so no browser asks the service for /favicon.ico (a 404 in its log).

const web = serverAndBrowser();

test('each app has an icon of its own, and no page asks for /favicon.ico', async () => {
  const context = await phone(web.browser);
  const icons = new Set<string>();
  for (const path of ['/app/', '/app/driver', '/app/ops']) {
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${web.server.url}${path}`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(href, `${path} names an icon`);
    const icon = await fetch(new URL(href, web.server.url));
    assert.equal(icon.status, 200, `${path}: ${href}`);
    assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    icons.add(href);
    assert.ok(!asked.includes('/favicon.ico'), `${path} asked for /favicon.ico`);
    await page.close();
  }
  assert.equal(icons.size, 3, 'one icon per app');
  await context.close();
});
