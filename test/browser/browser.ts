import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { freshDatabase, smtpSink } from '../helpers/app.ts';
import { http, serverEnv, startServer, type ServerProcess } from '../helpers/server-process.ts';
import type { SmtpSink } from '../helpers/smtp-sink.ts';

// What the browser tests share: a real service on a free port, Debian's Chromium driven by
// playwright-core, and a check of every screen (screenshot, axe-core, console errors).

export const RESULTS = 'test-results';
/** Chromium's flags on this machine (/work/.library/env: no sandbox as root, no background traffic on a closed network). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** A phone: the apps must work 360 px wide. */
export const PHONE = { width: 360, height: 740 };
/** Tiles come from a host that does not exist; every request for one is answered with this plain 1×1 PNG. */
export const TILE_HOST = 'http://tiles.test';
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4++QVAAVNAqzWpNWwAAAAAElFTkSuQmCC', 'base64');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface WebServer {
  url: string;
  smtp: SmtpSink;
  stop(): Promise<void>;
}

/** `npm start`'s server on a fresh database, mailing to the test SMTP sink, with dispatch that offers at once. */
export async function startWebServer(extra: Record<string, string> = {}): Promise<WebServer> {
  const smtp = await smtpSink();
  const database = await freshDatabase();
  let server: ServerProcess;
  try {
    server = await startServer({
      ...serverEnv(database.url, smtp.url),
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      OTP_RESEND_COOLDOWN_SECONDS: '0',
      DISPATCH_MODE: 'batched',
      DISPATCH_BATCH_MS: '200',
      DISPATCH_OFFER_TTL_SECONDS: '120',
      MAP_TILE_URL: `${TILE_HOST}/{z}/{x}/{y}.png`,
      // Servers of other tests share the machine's Redis, never its keys.
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
      ...extra,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url: server.url,
    smtp,
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      await database.drop();
    },
  };
}

export interface ServerAndBrowser {
  readonly server: WebServer;
  readonly browser: Browser;
}

/**
 * The file's server (startWebServer's defaults, with `extra` settings) and Chromium, started before
 * its first test. After its last, the screens as they stand are saved (where a failed test stopped),
 * then both stop.
 */
export function serverAndBrowser(extra: Record<string, string> = {}): ServerAndBrowser {
  let server: WebServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startWebServer(extra);
    browser = await launchChromium();
  });
  after(async () => {
    await lastScreens();
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      assert.ok(server, 'the server did not start');
      return server;
    },
    get browser() {
      assert.ok(browser, 'Chromium did not start');
      return browser;
    },
  };
}

export interface ProviderStandIn {
  /** The RAZORPAY_* values it printed for starting the service. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** `npm run dev:provider` as a developer runs it (on a free port, no webhooks): the payment provider's stand-in and its checkout script. */
export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const child = spawn(process.execPath, ['scripts/dev-provider.ts', '--port', '0', '--no-webhooks'], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let output = '';
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no instructions within 30 s')), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // The instructions end with the command that starts the service.
        if (output.includes(' npm start')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`the provider stand-in did not start (${(error as Error).message}):\n${output}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return {
    env: Object.fromEntries([...output.matchAll(/\b(RAZORPAY_\w+)=(\S+)/g)].map(([, name, value]) => [name, value])),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Account {
  id: number;
  name: string;
  email: string;
  password: string;
  token: string;
}

/** An account made over HTTP (code from the SMTP sink), for tests whose subject is not the sign-up screens. */
export async function accountOverHttp(server: WebServer, role: 'USER' | 'DRIVER' | 'ADMIN', name: string, email = `${role.toLowerCase()}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`): Promise<Account> {
  const password = 'a good password';
  const mailsBefore = server.smtp.mails.length;
  assert.equal((await http(`${server.url}/auth/signup/request-otp`, 'POST', { name, email })).status, 200);
  const otp = await server.smtp.otpFor(email, mailsBefore);
  assert.equal((await http(`${server.url}/auth/signup`, 'POST', { name, email, password, otp, role })).status, 200);
  const login = await http(`${server.url}/auth/login`, 'POST', { email, password, role });
  assert.equal(login.status, 200);
  return { id: login.body.id, name, email, password, token: login.body.accessToken };
}

/** Logs in through the app's own form. */
export async function logIn(screens: Screens, url: string, account: Account): Promise<void> {
  const { page } = screens;
  await page.goto(url);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).last().click();
}

export function launchChromium(): Promise<Browser> {
  // A fresh, temporary profile per launch is playwright's default (it refuses --user-data-dir here).
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A phone-sized context whose map tiles are answered locally and deterministically. */
export async function phone(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, ...options });
  await context.route(`${TILE_HOST}/**`, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TILE }));
  return context;
}

/** Waits until the apps' service worker is active and controls the page; answers the worker's scope. */
export async function workerControls(page: Page): Promise<string> {
  // (These functions run in the page: its globals, not Node's.)
  await page.waitForFunction(() => (globalThis as any).navigator.serviceWorker.controller?.state === 'activated');
  return page.evaluate(async () => (await (globalThis as any).navigator.serviceWorker.ready).scope as string);
}

const open = new Set<Screens>();

/** Screenshots of every page as it is now (`<app>-last.png`): where a failed test stopped. */
export async function lastScreens(): Promise<void> {
  for (const screens of open) await screens.page.screenshot({ path: `${RESULTS}/${screens.app}-last.png`, fullPage: true }).catch(() => undefined);
  open.clear();
}

/** A page whose console errors and uncaught exceptions are collected, and whose screens are checked. */
export class Screens {
  readonly page: Page;
  readonly app: string;
  readonly #errors: string[] = [];
  readonly #expected: string[] = [];
  #tolerated: string | undefined;
  #count = 0;

  constructor(page: Page, app: string) {
    this.page = page;
    this.app = app;
    open.add(this);
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (this.#tolerated && message.location().url.startsWith(this.#tolerated)) return;
      const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text())?.[1];
      const answer = status && `${status} ${new URL(message.location().url).pathname}`;
      const expected = answer ? this.#expected.indexOf(answer) : -1;
      if (expected >= 0) this.#expected.splice(expected, 1);
      else this.#errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => this.#errors.push(error.message));
    mkdirSync(RESULTS, { recursive: true });
  }

  /**
   * Chromium logs every error answer of a fetch as a console error. An answer the flow expects
   * (a new driver has no vehicle yet: 404) is declared here, once per time it happens.
   */
  expectAnswer(status: number, path: string): void {
    this.#expected.push(`${status} ${path}`);
  }

  /** Failed loads from this address are the point of the test (tiles that cannot load). */
  tolerateFailuresFrom(prefix: string): void {
    this.#tolerated = prefix;
  }

  /** Writes the screenshot, runs axe-core and fails on any serious or critical violation or console error so far. */
  async check(name: string): Promise<void> {
    const file = `${RESULTS}/${this.app}-${String(++this.#count).padStart(2, '0')}-${name}.png`;
    await this.page.screenshot({ path: file, fullPage: true });
    // Evaluated through the DevTools protocol: the pages' Content-Security-Policy admits no other script.
    // (These functions run in the page: its globals, not Node's, hence globalThis.)
    if (!(await this.page.evaluate(() => 'axe' in globalThis))) await this.page.evaluate(AXE);
    const violations = await this.page.evaluate(async () => {
      const page = globalThis as any;
      const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
      return result.violations
        .filter((violation: any) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation: any) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(violations, [], `${file}: accessibility violations`);
    const width = await this.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
    assert.ok(width <= this.page.viewportSize()!.width, `${file}: ${width} px wide, wider than the screen`);
    assert.deepEqual(this.#errors, [], `${file}: console errors`);
  }
}
