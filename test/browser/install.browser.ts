import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phone, serverAndBrowser, workerControls } from './browser.ts';

// Each app is installable: its page links a manifest Chromium accepts (its own installability
// check, through the DevTools protocol), with PNG icons of the sizes it names, and the apps' service
// worker installs and takes the page.

const web = serverAndBrowser();

const APPS = [
  { path: '/app/', name: 'Ride', manifest: '/app/rider.webmanifest' },
  { path: '/app/driver', name: 'Ride — driver', manifest: '/app/driver.webmanifest' },
  { path: '/app/ops', name: 'Ride — operator console', manifest: '/app/ops.webmanifest' },
];

/** The width and height a PNG file says it has (its IHDR chunk). */
function pngSize(bytes: Buffer): string {
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG', 'a PNG file');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

for (const app of APPS) {
  test(`${app.path} is installable: a valid manifest, its icons, and the service worker controls the page`, async () => {
    const context = await phone(web.browser);
    const page = await context.newPage();
    await page.goto(`${web.server.url}${app.path}`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    assert.equal(await page.locator('link[rel="manifest"]').getAttribute('href'), app.manifest);

    const answer = await fetch(`${web.server.url}${app.manifest}`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    assert.equal(answer.headers.get('cache-control'), 'no-cache');
    const manifest: any = await answer.json();
    assert.equal(manifest.name, app.name);
    assert.equal(manifest.start_url, app.path);
    assert.equal(manifest.scope, app.path);
    assert.equal(manifest.display, 'standalone');
    const purposes = new Set<string>();
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, web.server.url));
      assert.equal(image.status, 200, icon.src);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.equal(pngSize(Buffer.from(await image.arrayBuffer())), icon.sizes, icon.src);
      purposes.add(`${icon.sizes} ${icon.purpose}`);
    }
    assert.deepEqual([...purposes].sort(), ['192x192 any', '512x512 any', '512x512 maskable']);

    // Chromium's own reading of the manifest, and its verdict on installing the app.
    const cdp = await context.newCDPSession(page);
    const { errors, data } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(errors, [], 'the manifest parses without errors');
    assert.ok(data?.includes(app.name));
    assert.equal(await workerControls(page), `${web.server.url}/app/`);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    // Playwright's contexts are incognito-like, where Chromium installs nothing: that one is the test's, not the app's.
    assert.deepEqual(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito'), [], 'Chromium would install the app');

    const worker = await fetch(`${web.server.url}/app/sw.js`);
    assert.equal(worker.headers.get('cache-control'), 'no-cache', 'a new build of the worker is seen at once');
    assert.match(worker.headers.get('content-type') ?? '', /javascript/);
    await context.close();
  });
}
