// The web apps: how much compressed JavaScript each app's first load costs (from the build output,
// and from what Chromium actually downloads), and whether the rider's map follows one driver
// position a second without dropped frames on a slow CPU (Chromium's CPU throttling ×4).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { log, quick, type Mode, type Row, type Scenario } from '../lib/context.ts';
import { loadFixtures } from '../lib/fixtures.ts';
import { SERVICE_NODE_FLAGS, startServer, type RunningServer } from '../lib/processes.ts';

const DIST = new URL('../../web/dist/', import.meta.url).pathname;
const APPS = [
  { name: 'rider', page: 'index.html', path: '/app/' },
  { name: 'driver', page: 'driver/index.html', path: '/app/driver' },
  { name: 'ops', page: 'ops/index.html', path: '/app/ops' },
];
const BUDGET_KB = 200;
/** A frame slower than this is a dropped frame to the eye (three 60 Hz frames). */
const SLOW_FRAME_MS = 50;
const CPU_SLOWDOWN = 4;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

export const webScenario: Scenario = async (mode: Mode, env: Record<string, string | undefined>): Promise<Row[]> => {
  // The same files in every mode: measured once.
  if (mode.name !== 'embedded') return [];
  if (!existsSync(join(DIST, 'index.html'))) {
    log('building the web apps');
    spawnSync(process.execPath, [new URL('../../web/build.ts', import.meta.url).pathname], { stdio: 'inherit' });
  }
  const rows: Row[] = [];
  const built = new Map(APPS.map((app) => [app.name, builtJavaScript(app.page)]));
  if (!existsSync(CHROMIUM)) {
    for (const app of APPS) rows.push(sizeRow(app.name, built.get(app.name)!, undefined));
    return [...rows, { scenario: `web: rider map (no Chromium at ${CHROMIUM})`, mode: mode.name, target: `0 frames over ${SLOW_FRAME_MS} ms`, met: false }];
  }

  const fixtures = await loadFixtures(loadConfig({ ...process.env, ...env }), { riders: 1, drivers: 1, acceptedRides: 1 });
  const service = await startServer(new URL('../service.ts', import.meta.url).pathname, [], { ...env, MAP_TILE_URL: 'http://tiles.test/{z}/{x}/{y}.png' }, { flags: SERVICE_NODE_FLAGS });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    for (const app of APPS) rows.push(sizeRow(app.name, built.get(app.name)!, await downloadedJavaScript(browser, service.url + app.path)));
    rows.push(await mapFrames(browser, service, fixtures.riders[0], fixtures.rides[0]));
  } finally {
    await browser.close();
    await service.stop();
  }
  return rows;

  function sizeRow(name: string, size: { br: number; gz: number }, downloaded: number | undefined): Row {
    const worst = Math.max(size.br, downloaded ?? 0);
    return {
      scenario: `web: ${name} app first load, compressed JS — build ${kb(size.br)} KB br / ${kb(size.gz)} KB gzip; downloaded ${downloaded === undefined ? '?' : kb(downloaded)} KB`,
      mode: mode.name,
      value: `${kb(worst)} KB`,
      target: `< ${BUDGET_KB} KB`,
      met: downloaded !== undefined && kb(worst) < BUDGET_KB,
    };
  }
};

/** The JavaScript a page loads at start: its module script and what it preloads, as the build wrote them. */
function builtJavaScript(page: string): { br: number; gz: number } {
  const html = readFileSync(join(DIST, page), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/app\/([^"]+\.js)"/g)].map((match) => match[1]);
  const size = (file: string) => statSync(join(DIST, file)).size;
  return { br: files.reduce((sum, file) => sum + size(`${file}.br`), 0), gz: files.reduce((sum, file) => sum + size(`${file}.gz`), 0) };
}

/** Bytes of script Chromium received (encoded, as sent) while loading the page. */
async function downloadedJavaScript(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  await context.route('http://tiles.test/**', (route) => route.abort());
  const page = await context.newPage();
  const sizes: Array<Promise<number>> = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') sizes.push(request.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const total = (await Promise.all(sizes)).reduce((sum, bytes) => sum + bytes, 0);
  await context.close();
  return total;
}

/** What a frame recorder running in a page saw: every animation frame's time, and when the driver marker moved. */
interface Recording {
  frames: number[];
  moves: number[];
}

/**
 * Slow frames that began within WINDOW_MS after one of `moments`: the frames a position update
 * could have slowed. On a blank page the moments are plain one-second ticks.
 */
function slowAfter(recording: Recording, moments: number[]): { slow: number; longest: number } {
  const gaps = recording.frames.slice(1).map((at, i) => ({ start: recording.frames[i], length: at - recording.frames[i] }));
  const near = gaps.filter((gap) => moments.some((moment) => gap.start >= moment && gap.start - moment <= WINDOW_MS));
  return { slow: near.filter((gap) => gap.length > SLOW_FRAME_MS).length, longest: Math.round(Math.max(0, ...near.map((gap) => gap.length))) };
}

const WINDOW_MS = 100;

/**
 * The rider follows an accepted ride while the driver reports once a second, on a CPU four times
 * slower, and every animation frame is timed in the page. The machine itself drops frames when it
 * is busy, so the same recorder first runs on a blank page under the same throttling: the app
 * meets the target when the frames after its position updates are no slower than the blank
 * page's frames after each second's tick.
 */
async function mapFrames(browser: Browser, service: RunningServer, rider: { id: number; token: string }, ride: { id: number; driverToken: string; pickup: { lat: number; lon: number } }): Promise<Row> {
  const seconds = quick ? 10 : 30;
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await context.route('http://tiles.test/**', (route) => route.abort());
  const session = { accessToken: rider.token, refreshToken: 'unused', expiresAt: Date.now() + 3_600_000, userId: rider.id, name: 'Bench rider', role: 'RIDER' };
  // Signed in as the fixtures' rider (these functions run in the page, with its globals).
  await context.addInitScript((value) => (globalThis as any).localStorage.setItem('ride-hailing.rider', value), JSON.stringify(session));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  await page.setContent('<!doctype html><title>blank</title><div class="pin-driver"></div>');
  await record(page);
  const ticks: number[] = [];
  for (let second = 1; second <= seconds; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    ticks.push(await page.evaluate(() => (globalThis as any).performance.now()));
  }
  const blank = slowAfter(await recorded(page), ticks);

  const report = (step: number) =>
    fetch(`${service.url}/rides/location/${ride.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ride.driverToken}`, 'content-type': 'application/json' },
      // From 2 km north towards the pickup, about 50 m a second.
      body: JSON.stringify({ lat: ride.pickup.lat + 0.018 - step * 0.00045, lon: ride.pickup.lon }),
    });
  await page.goto(`${service.url}/app/`);
  await page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  await report(0);
  await page.locator('.pin-driver').waitFor();
  await record(page);
  for (let step = 1; step <= seconds; step++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await report(step);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const app = await recorded(page);
  await context.close();
  const following = slowAfter(app, app.moves);
  return {
    scenario: `web: rider map following 1 position/s for ${seconds} s, CPU ×${CPU_SLOWDOWN} — ${app.moves.length} moves, longest frame after one ${following.longest} ms; blank page: ${blank.slow} slow frames after ${ticks.length} ticks (longest ${blank.longest} ms)`,
    mode: 'embedded',
    value: `${following.slow} frames over ${SLOW_FRAME_MS} ms`,
    target: `no more frames over ${SLOW_FRAME_MS} ms after a position update than a blank page has`,
    met: app.moves.length >= seconds - 1 && following.slow <= blank.slow,
  };
}

/** Starts timing every animation frame, and every move of the driver marker. */
async function record(page: Page): Promise<void> {
  await page.evaluate(() => {
    const window = globalThis as any;
    window.recording = { frames: [], moves: [] };
    const tick = (at: number) => {
      window.recording.frames.push(at);
      window.requestAnimationFrame(tick);
    };
    window.requestAnimationFrame(tick);
    const marker = window.document.querySelector('.pin-driver');
    new window.MutationObserver(() => window.recording.moves.push(window.performance.now())).observe(marker, { attributes: true, attributeFilter: ['style'] });
  });
}

const recorded = (page: Page): Promise<Recording> => page.evaluate(() => (globalThis as any).recording);
