// npm run lighthouse [-- --runs=3]   (the npm script builds the apps first)
//
// Lighthouse (performance, accessibility, best practices; its default mobile emulation and simulated
// throttling) on each app's sign-in page and on the screen its user lands on once signed in: the
// rider's "Where to?", the driver's Drive screen with a vehicle saved, the operator's live console. The
// service runs embedded on a temporary database (the simulator's startEmbedded, with create-admin's
// operator, who makes the rider and driver accounts), and Debian's Chromium is audited on its
// DevTools port, a fresh profile for every run so each load is a first visit. Prints a table,
// writes the scores to bench/results/lighthouse.json and each run's report to
// test-results/lighthouse/, and exits 1 when a page's median is below a threshold
// (scripts/lighthouse-scores.ts).

import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { routes } from '../src/contract/routes.ts';
import type { Role, TokenResponse } from '../src/contract/types.ts';
import { Http } from '../simulator/api.ts';
import { startEmbedded } from '../simulator/embedded.ts';
import { CATEGORIES, THRESHOLDS, medianScores, shortfalls, type Scores } from './lighthouse-scores.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SCORES_FILE = join(ROOT, 'bench/results/lighthouse.json');
const REPORTS = join(ROOT, 'test-results/lighthouse');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** The browser tests' flags (test/browser/browser.ts): no sandbox as root, no traffic of Chromium's own. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Page {
  name: string;
  path: string;
  /** Signed in as this role (the session where the app keeps it), or signed out. */
  signedIn?: { role: Role; storageKey: string };
  /** Text only this screen shows: checked after the audit, so a page that fell back to another screen is not scored as this one. */
  shows: string;
}

const PAGES: Page[] = [
  { name: 'rider: sign-in', path: '/app/', shows: 'Log in' },
  { name: 'rider: where to', path: '/app/', signedIn: { role: 'RIDER', storageKey: 'ride-hailing.rider' }, shows: 'Where to?' },
  { name: 'driver: sign-in', path: '/app/driver', shows: 'Log in' },
  { name: 'driver: drive', path: '/app/driver', signedIn: { role: 'DRIVER', storageKey: 'ride-hailing.driver' }, shows: 'Go online' },
  { name: 'ops: sign-in', path: '/app/ops', shows: 'Log in' },
  { name: 'ops: live', path: '/app/ops', signedIn: { role: 'ADMIN', storageKey: 'ride-hailing.ops' }, shows: 'Live' },
];

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run lighthouse [-- --runs=N]   (N ≥ 1, runs per page; the median counts)');
  process.exit(2);
}

// Map tiles from a server of our own: the audit measures the apps, not a tile provider, and CI has no internet.
mkdirSync(REPORTS, { recursive: true });
const tiles = await tileServer();
const service = await startEmbedded({ dispatchMode: 'batched', speed: 1, env: { MAP_TILE_URL: `${tiles.url}/{z}/{x}/{y}.png` } });
const results: Array<{ page: string; url: string; runs: Scores[]; median: Scores }> = [];
try {
  const sessions = await signIn(service.url, service.admin);
  for (const page of PAGES) {
    const url = service.url + page.path;
    const scores: Scores[] = [];
    for (let run = 1; run <= runs; run++) {
      const session = page.signedIn && sessions.get(page.signedIn.role)!;
      const lhr = await audit(url, page, session);
      writeFileSync(join(REPORTS, `${file(page)}-${run}.json`), JSON.stringify(lhr));
      scores.push(Object.fromEntries(CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)])) as Scores);
      if (shortfalls(scores.at(-1)!).length > 0) console.log(`${page.name}, run ${run}:\n${lost(lhr)}`);
    }
    results.push({ page: page.name, url: page.path, runs: scores, median: medianScores(scores) });
  }
} finally {
  await service.stop();
  tiles.server.close();
}

const table = [
  ['page', ...CATEGORIES.map((category) => `${category} (≥ ${THRESHOLDS[category]})`)],
  ...results.map(({ page, runs: all, median }) => [page, ...CATEGORIES.map((category) => `${median[category]}${all.length > 1 ? ` (${all.map((run) => run[category]).join(', ')})` : ''}`)]),
];
const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
for (const row of table) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(SCORES_FILE, `${JSON.stringify({ date: new Date().toISOString(), runsPerPage: runs, thresholds: THRESHOLDS, pages: results }, null, 2)}\n`);
console.log(`medians of ${runs} run${runs > 1 ? 's' : ''} a page (each run in brackets); scores in ${SCORES_FILE}, reports in ${REPORTS}`);
const failed = results.flatMap(({ page, median }) => shortfalls(median).map((shortfall) => `${page}: ${shortfall}`));
if (failed.length > 0) {
  console.error(`below the thresholds:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
}

/** Logs in the operator and makes (through POST /admin/users) a rider and a driver with a vehicle: each one's session as the apps keep it. */
async function signIn(url: string, admin: { email: string; password: string }): Promise<Map<Role, string>> {
  const http = new Http(url);
  const login = (email: string, password: string) => http.client().call(routes.auth.login, { body: { email, password } });
  const operator = await login(admin.email, admin.password);
  const asOperator = http.client({ token: () => operator.accessToken });
  const sessions = new Map<Role, string>([['ADMIN', session(operator)]]);
  for (const [role, name] of [['RIDER', 'Asha Rider'], ['DRIVER', 'Ravi Driver']] as const) {
    const account = { name, email: `${role.toLowerCase()}@lighthouse.invalid`, password: 'a lighthouse password', role };
    await asOperator.call(routes.admin.createUser, { body: account });
    const tokens = await login(account.email, account.password);
    // A driver who has saved a vehicle, as every day after the first.
    if (role === 'DRIVER') await http.client({ token: () => tokens.accessToken }).call(routes.drivers.saveProfile, { body: { vehicleType: 'mini', vehicleNumber: 'KA01AB1234' } });
    sessions.set(role, session(tokens));
  }
  return sessions;
}

/** What web/src/api/client.ts keeps in localStorage for a signed-in user. */
function session(tokens: TokenResponse): string {
  return JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: Date.now() + tokens.expiresIn * 1000, userId: tokens.id, name: tokens.name, role: tokens.role });
}

/**
 * One Lighthouse run on a fresh Chromium profile. The session is written first from the service's
 * /health (a page of the same origin that loads none of the app), so the audited load is still a
 * first visit: nothing cached, no service worker. Lighthouse's own storage reset would remove the session.
 */
async function audit(url: string, page: Page, session: string | undefined): Promise<Result> {
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'));
  const port = await freePort();
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  try {
    const tab = browser.pages()[0] ?? (await browser.newPage());
    if (session && page.signedIn) {
      await tab.goto(new URL('/health', url).href);
      // Runs in the page, on its localStorage.
      await tab.evaluate(([key, value]) => localStorage.setItem(key, value), [page.signedIn.storageKey, session]);
      await tab.goto('about:blank');
    }
    const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: true };
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`${page.name}: Lighthouse returned no result`);
    if (result.lhr.runtimeError) throw new Error(`${page.name}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    await tab.goto(url);
    await tab.getByText(page.shows, { exact: true }).first().waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      const screenshot = join(REPORTS, `${file(page)}-screen.png`);
      await tab.screenshot({ path: screenshot });
      throw new Error(`${page.name}: the audited page does not show "${page.shows}" (${screenshot})`, { cause: error });
    });
    return result.lhr;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A page's name as a file name: "rider-sign-in". */
function file(page: Page): string {
  return page.name.replace(/\W+/g, '-');
}

/** The audits that cost a run points: every weighted one not fully passed, by category. */
function lost(lhr: Result): string {
  return CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `  ${category}: ${ref.id} (${lhr.audits[ref.id].score}) ${lhr.audits[ref.id].displayValue ?? ''} ${lhr.audits[ref.id].title}`),
  ).join('\n');
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Serves one light grey 256 × 256 PNG for every tile. */
async function tileServer(): Promise<{ server: Server; url: string }> {
  const tile = png(256, 256, [0xe8, 0xe6, 0xe1]);
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=86400' }).end(tile)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** A PNG of one colour (8-bit RGB, every row unfiltered). */
function png(width: number, height: number, [red, green, blue]: number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.from([0, ...Array.from({ length: width }, () => [red, green, blue]).flat()]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
