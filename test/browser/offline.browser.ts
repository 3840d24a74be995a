import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser, workerControls } from './browser.ts';

// The installed apps with the network gone (Chromium's offline emulation, once the service worker
// controls the page): the shell comes from the worker's cache and the app shows the ride it last
// knew, with its codes and the driver's last position. And a new build's worker, while a page is
// open: it waits, the page goes on working, and the page reloads into the new build when asked.

const web = serverAndBrowser();
const NEAR_MG_ROAD = { lat: 12.9806, lon: 77.6066 };
const TRIP = { pickupLat: 12.9756, pickupLon: 77.6067, dropLat: 12.9352, dropLon: 77.6245, pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall' };

// (These functions run in the page: its globals, not Node's.)
const cacheNames = (page: Page) => page.evaluate(() => (globalThis as any).caches.keys() as Promise<string[]>);

test("with the network cut, the rider and driver apps still open on the ride, the rider's code and the driver's last position", async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Offline');
  const driverAccount = await accountOverHttp(web.server, 'DRIVER', 'Kiran Rao');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05OF1234' }, driverAccount.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', NEAR_MG_ROAD, driverAccount.token)).status, 200);
  const booked = await http(`${web.server.url}/rides/book`, 'POST', TRIP, riderAccount.token);
  assert.equal(booked.status, 200);
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driverAccount.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driverAccount.token)).status, 200);

  const riderContext = await phone(web.browser);
  const rider = new Screens(await riderContext.newPage(), 'rider-offline');
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await rider.page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  const code = (await rider.page.getByTestId('start-code').textContent())?.trim();
  assert.match(code ?? '', /^\d{4,6}$/);
  await rider.page.locator('.pin-driver').waitFor();
  await workerControls(rider.page);
  await rider.check('online');

  await riderContext.setOffline(true);
  const reloaded = await rider.page.reload();
  assert.ok(reloaded?.fromServiceWorker(), 'the page came from the service worker');
  await rider.page.getByText('You are offline.').waitFor();
  await rider.page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  assert.equal((await rider.page.getByTestId('start-code').textContent())?.trim(), code, 'the same start code');
  await rider.page.locator('.pin-driver').waitFor();
  await rider.page.screenshot({ path: 'test-results/rider-offline-02-offline.png', fullPage: true });

  await riderContext.setOffline(false);
  await rider.page.getByText('You are offline.').waitFor({ state: 'hidden' });

  const driverContext = await phone(web.browser);
  const driver = new Screens(await driverContext.newPage(), 'driver-offline');
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  await driver.page.getByText('Pick up Meera Offline').first().waitFor();
  await workerControls(driver.page);
  await driverContext.setOffline(true);
  assert.ok((await driver.page.reload())?.fromServiceWorker(), 'the page came from the service worker');
  await driver.page.getByText('You are offline.').waitFor();
  await driver.page.getByText('Pick up Meera Offline').first().waitFor();
  await driver.page.screenshot({ path: 'test-results/driver-offline-02-offline.png', fullPage: true });
  await driverContext.setOffline(false);

  // Signing out leaves nothing of the ride on the device.
  await rider.page.getByRole('button', { name: 'Sign out' }).click();
  await rider.page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.deepEqual(await rider.page.evaluate(() => Object.keys((globalThis as any).localStorage)), []);
  await riderContext.close();
  await driverContext.close();
});

/** A deploy in front of the service: answers as the service does, except that after `deploy()` its worker is a new build's. */
async function deployable(upstream: string): Promise<{ url: string; deploy(): void; close(): Promise<void> }> {
  const target = new URL(upstream);
  let deployed = false;
  const server: Server = createServer((incoming, outgoing) => {
    const swapped = deployed && incoming.url === '/app/sw.js';
    // The worker to change is asked for uncompressed.
    const headers = swapped ? Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => name !== 'accept-encoding')) : incoming.headers;
    const forward = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      if (!swapped) {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        return void answer.pipe(outgoing);
      }
      // The next build: the same files under a new version, as a build whose apps changed.
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const worker = Buffer.concat(chunks).toString();
        const version = /^\/\/ build ([0-9a-f]{16})/.exec(worker)?.[1];
        assert.ok(version, 'the worker names its build');
        const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['content-length', 'etag', 'last-modified'].includes(name)));
        outgoing.writeHead(200, kept);
        outgoing.end(worker.replaceAll(version, 'f'.repeat(16)));
      });
    });
    incoming.pipe(forward);
  });
  // The realtime channel: bytes both ways.
  server.on('upgrade', (incoming, socket, head) => {
    const to = connect(Number(target.port), target.hostname, () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) lines.push(`${incoming.rawHeaders[i]}: ${incoming.rawHeaders[i + 1]}`);
      to.write(`${lines.join('\r\n')}\r\n\r\n`);
      to.write(head);
      socket.pipe(to).pipe(socket);
    });
    to.on('error', () => socket.destroy());
    socket.on('error', () => to.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deploy: () => (deployed = true),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

test("a new build's worker waits while a page is open; the page goes on working and reloads into the new build when asked", async (t) => {
  const account = await accountOverHttp(web.server, 'USER', 'Asha Update');
  const site = await deployable(web.server.url);
  const context = await phone(web.browser);
  // Closed however the test ends: the proxy's open connections would otherwise keep this file's process alive.
  t.after(async () => {
    await context.close();
    await site.close();
  });
  const rider = new Screens(await context.newPage(), 'rider-update');
  await rider.page.goto(`${site.url}/app/`);
  await rider.page.getByRole('heading', { name: 'Log in' }).waitFor();
  await workerControls(rider.page);
  const [first] = await cacheNames(rider.page);
  assert.ok(first?.startsWith('ride-hailing-shell-'));

  site.deploy();
  await rider.page.evaluate(async () => (await (globalThis as any).navigator.serviceWorker.ready).update());
  await rider.page.getByText('A new version of the app is ready.').waitFor();
  await rider.check('new-version-ready');
  // The old build still runs this page, and its files are all still kept: it works as before.
  assert.deepEqual((await cacheNames(rider.page)).sort(), [first, 'ride-hailing-shell-ffffffffffffffff'].sort());
  await rider.page.getByLabel('E-mail').fill(account.email);
  await rider.page.getByLabel('Password').fill(account.password);
  await rider.page.getByRole('button', { name: 'Log in' }).last().click();
  await rider.page.getByRole('link', { name: 'History' }).click();
  await rider.page.getByRole('heading', { name: 'Your rides' }).waitFor();

  // The new worker takes over, and then the page reloads into the new build: what follows must read the
  // new page, not the old one in the moment before it goes (its cache may already be cleaned up).
  const reloaded = rider.page.waitForEvent('load');
  await rider.page.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await rider.page.waitForFunction(() => (globalThis as any).navigator.serviceWorker.controller?.scriptURL && (globalThis as any).document.readyState === 'complete');
  await rider.page.getByRole('link', { name: 'History' }).waitFor();
  await eventually(async () => ((await cacheNames(rider.page)).join() === 'ride-hailing-shell-ffffffffffffffff' ? true : undefined), 'only the new build kept');
  assert.equal(await rider.page.getByText('A new version of the app is ready.').count(), 0);
  await rider.check('after-update');
});
