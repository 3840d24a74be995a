import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Figures } from '../../simulator/figures.ts';
import { CHARTS, htmlReport, type NamedRun } from '../../simulator/report.ts';
import type { RunSettings } from '../../simulator/simulation.ts';
import { launchChromium } from './browser.ts';

// The simulator's HTML report (--report) is read on phones too: it fits a 390 px screen, charts
// and all, with the figures table scrolling inside itself rather than the page growing wider.

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

const summary = { mean: 4.25, p50: 3.65, p90: 7.4 };
const figures: Figures = {
  requests: 42,
  matched: 28,
  matchedShare: 0.667,
  cancelledBeforeMatch: 0,
  unmatched: { total: 14, noDriverFound: 14, gaveUp: 0 },
  waitingAtEnd: 0,
  timeToAcceptSeconds: { mean: 32.16, p50: 27.6, p90: 49.54 },
  pickupDistanceKm: summary,
  pickupMinutes: { mean: 19.13, p50: 16.42, p90: 33.3 },
  completed: 28,
  cancelledAfterMatch: { byRider: 0, byDriver: 0, byAdmin: 0 },
  inProgressAtEnd: 0,
  driverUtilisation: 0.257,
  surge: { mean: 1, max: 1 },
  offers: { received: 35, accepted: 28, declined: 3, ignored: 4, missed: 0 },
  payments: { cash: 15, online: 13, failed: 0 },
  ratings: { count: 23, mean: 4.57 },
  bookingFailures: { NO_FREE_RIDER: 2 },
  bookedAhead: { booked: 2, completed: 1 },
  tripCharges: { waiting: { rides: 7, inr: 84 }, tollsAndParking: { rides: 4, inr: 260 }, nightRides: 0, refusedByCap: 0 },
  intervalMinutes: 10,
  series: Array.from({ length: 15 }, (_, i) => ({ from: `0${8 + Math.floor(i / 6)}:${String((i % 6) * 10).padStart(2, '0')}`, requests: 3, matchedShare: 0.6, pickupMinutes: 18, surge: 1, onlineDrivers: 40, busyDrivers: 10 })),
};
const settings: RunSettings = {
  url: 'http://127.0.0.1:1 (embedded (SQLite), DISPATCH_MODE=nearest DISPATCH_BATCH_MS=100)',
  city: 'Bengaluru',
  seed: 1,
  drivers: 40,
  riders: 80,
  minutes: 60,
  speed: 20,
  start: '08:00',
  load: 1,
  routing: 'straight lines × 1.3 at 24 km/h',
  payments: 'the payment stand-in',
  rateLimited: 0,
  warnings: 0,
  stoppedEarly: false,
};

test('the report of a comparison fits a 390 px phone', async () => {
  const runs: NamedRun[] = [{ name: 'nearest', settings, figures }, { name: 'batched', settings, figures }];
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.setContent(htmlReport(runs));
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide on a 390 px screen`);
  const charts = await page.locator('svg').evaluateAll((svgs) => svgs.map((svg) => (svg as any).getBoundingClientRect().right));
  assert.equal(charts.length, CHARTS.length);
  for (const right of charts) assert.ok(right <= 390, `a chart ends at ${right} px`);
  await page.close();
});
