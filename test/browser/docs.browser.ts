import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phone, serverAndBrowser } from './browser.ts';

// The API's own documentation page lives on the apps' origin: it carries a CSP of its own, and
// Swagger UI works under it.

const web = serverAndBrowser();

test('/docs renders the API under its own CSP, which no page may frame', async () => {
  const reply = await fetch(`${web.server.url}/docs`);
  const policy = reply.headers.get('content-security-policy') ?? '';
  assert.match(policy, /frame-ancestors 'none'/);
  assert.match(policy, /script-src 'self'(;|$)/, 'its own scripts only');

  const context = await phone(web.browser);
  const page = await context.newPage();
  const violations: string[] = [];
  await page.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text));
  await page.addInitScript(() => {
    const page = globalThis as any;
    page.document.addEventListener('securitypolicyviolation', (event: any) => page.reportViolation(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(`${web.server.url}/docs`);
  await page.getByText('Ride-hailing API', { exact: false }).first().waitFor();
  await page.getByText('/rides/book').first().waitFor();
  assert.deepEqual(violations, []);
  await context.close();
});
