import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// The web apps' files as `npm start` serves them, from a stand-in build (no Vite needed here): the
// browser tests (test/browser, npm run test:browser) cover the apps themselves.

const TILES = 'https://{s}.tiles.example/{z}/{x}/{y}.png';
/** The development stand-in's checkout script (npm run dev:provider). */
const CHECKOUT = 'http://127.0.0.1:9090/v1/checkout.js';
const SCRIPT = 'console.log("rider")';

/** A Content-Security-Policy header as its directives. */
const directives = (header: string): Record<string, string> =>
  Object.fromEntries(header.split(/;\s*/).map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]));

function fakeBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'driver'));
  mkdirSync(join(root, 'ops'));
  mkdirSync(join(root, 'share'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>rider</title>');
  writeFileSync(join(root, 'driver', 'index.html'), '<!doctype html><title>driver</title>');
  writeFileSync(join(root, 'ops', 'index.html'), '<!doctype html><title>ops</title>');
  writeFileSync(join(root, 'share', 'index.html'), '<!doctype html><title>share</title>');
  writeFileSync(join(root, 'assets', 'rider-AbC123.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'rider-AbC123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'assets', 'rider-AbC123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  for (const app of ['rider', 'driver', 'ops']) writeFileSync(join(root, `${app}.webmanifest`), JSON.stringify({ name: app }));
  mkdirSync(join(root, 'icons'));
  writeFileSync(join(root, 'icons', 'rider-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  return root;
}

describe('web apps served by the service', () => {
  let t: TestApp;
  let root: string;

  before(async () => {
    root = fakeBuild();
    t = await createTestApp({ webApps: { enabled: true, root, mapTileUrl: TILES, checkoutUrl: CHECKOUT, driverApprovalRequired: false } });
  });

  after(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('the root address leads to the rider app', async () => {
    const reply = await t.app.inject({ url: '/' });
    assert.equal(reply.statusCode, 302);
    assert.equal(reply.headers.location, '/app/');
  });

  test('each app answers at its address with a page browsers must revalidate', async () => {
    for (const [url, title] of [['/app/', 'rider'], ['/app/driver', 'driver'], ['/app/driver/', 'driver'], ['/app/ops', 'ops']]) {
      const reply = await t.app.inject({ url });
      assert.equal(reply.statusCode, 200, url);
      assert.match(reply.body, new RegExp(`<title>${title}</title>`), url);
      assert.equal(reply.headers['cache-control'], 'no-cache', url);
      assert.match(String(reply.headers['content-type']), /^text\/html/, url);
    }
  });

  test('the service worker, the manifests and the icons are served with their types, revalidated so a new build is seen at once', async () => {
    const worker = await t.app.inject({ url: '/app/sw.js' });
    assert.equal(worker.statusCode, 200);
    assert.match(String(worker.headers['content-type']), /javascript/);
    assert.equal(worker.headers['cache-control'], 'no-cache');
    for (const app of ['rider', 'driver', 'ops']) {
      const manifest = await t.app.inject({ url: `/app/${app}.webmanifest` });
      assert.equal(manifest.statusCode, 200, app);
      assert.match(String(manifest.headers['content-type']), /^application\/manifest\+json/, app);
      assert.deepEqual(manifest.json(), { name: app });
    }
    const icon = await t.app.inject({ url: '/app/icons/rider-192.png' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/png');
    assert.equal((await t.app.inject({ url: '/app/icons/..%2Findex.html' })).statusCode, 400, 'icons are PNG names only');
    assert.equal((await t.app.inject({ url: '/app/icons/missing.png' })).statusCode, 404);
  });

  test("a sharing link's page answers at /share/<token> under the apps' policy, and its address leaves in no Referer", async () => {
    const reply = await t.app.inject({ url: `/share/${'x'.repeat(43)}` });
    assert.equal(reply.statusCode, 200);
    assert.match(reply.body, /<title>share<\/title>/);
    assert.equal(reply.headers['referrer-policy'], 'no-referrer');
    assert.equal(reply.headers['cache-control'], 'no-cache');
    assert.equal(directives(String(reply.headers['content-security-policy']))['default-src'], "'self'");
  });

  test('pages run scripts from the service and the payment checkout only, talk to nothing else, and show images from the tile server', async () => {
    const policy = directives(String((await t.app.inject({ url: '/app/' })).headers['content-security-policy']));
    assert.equal(policy['default-src'], "'self'");
    assert.equal(policy['script-src'], "'self' http://127.0.0.1:9090");
    assert.equal(policy['frame-src'], 'http://127.0.0.1:9090');
    assert.equal(policy['connect-src'], "'self' http://127.0.0.1:9090");
    assert.equal(policy['img-src'], "'self' data: https://*.tiles.example");
    assert.equal(policy['style-src'], "'self'");
    assert.doesNotMatch(Object.values(policy).join(' '), /unsafe-inline|unsafe-eval/);
  });

  test('hashed assets are cached for a year and sent precompressed when the browser accepts it', async () => {
    const brotli = await t.app.inject({ url: '/app/assets/rider-AbC123.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(brotli.statusCode, 200);
    assert.equal(brotli.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.match(String(brotli.headers.vary), /accept-encoding/i);
    assert.match(String(brotli.headers['content-type']), /javascript/);
    assert.deepEqual(brotli.rawPayload, brotliCompressSync(SCRIPT));

    const gzip = await t.app.inject({ url: '/app/assets/rider-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');

    const plain = await t.app.inject({ url: '/app/assets/rider-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body, SCRIPT);
  });

  test('the apps read their map tiles and payment checkout from the configuration, without a rebuild', async () => {
    const reply = await t.app.inject({ url: '/app/config.json' });
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.headers['cache-control'], 'no-cache');
    assert.deepEqual(reply.json(), { mapTileUrl: TILES, mapAttribution: '', checkoutUrl: CHECKOUT, driverApprovalRequired: false });
  });

  test('only files of the build are served, never a path outside it', async () => {
    for (const url of ['/app/assets/missing-123.js', '/app/assets/..%2F..%2Fpackage.json', '/app/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/app/index.html.br/x']) {
      const reply = await t.app.inject({ url });
      assert.ok([400, 404].includes(reply.statusCode), `${url}: ${reply.statusCode}`);
      assert.equal(reply.json().statusCode, reply.statusCode, `${url}: the uniform error body`);
    }
  });

  test('the app routes are not API operations: the OpenAPI document leaves them out', async () => {
    const paths = Object.keys((await t.app.inject({ url: '/openapi.json' })).json().paths);
    assert.deepEqual(paths.filter((path) => path === '/' || path.startsWith('/app')), []);
  });
});

test('WEB_APPS=false serves no app', async () => {
  const root = fakeBuild();
  const t = await createTestApp({ webApps: { enabled: false, root, mapTileUrl: TILES, checkoutUrl: CHECKOUT, driverApprovalRequired: false } });
  try {
    assert.equal((await t.app.inject({ url: '/app/' })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/' })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
  } finally {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('without a build (an install without dev dependencies) the service starts and says so in one line', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const t = await createTestApp({ webApps: { enabled: true, root: join(tmpdir(), 'no-such-build'), mapTileUrl: TILES, checkoutUrl: CHECKOUT, driverApprovalRequired: false } }, { logger: { level: 'warn', stream } });
  try {
    assert.equal((await t.app.inject({ url: '/app/' })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
    const notes = lines.filter((line) => line.includes('web apps not served'));
    assert.equal(notes.length, 1, lines.join(''));
    assert.match(notes[0], /npm run build:web/);
  } finally {
    await t.close();
  }
});

test("by default the apps load Razorpay's checkout, and the pages admit Razorpay's hosts its checkout uses", async () => {
  const root = fakeBuild();
  const { webApps } = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
  assert.equal(webApps.checkoutUrl, 'https://checkout.razorpay.com/v1/checkout.js');
  const t = await createTestApp({ webApps: { ...webApps, root } });
  try {
    assert.equal((await t.app.inject({ url: '/app/config.json' })).json().checkoutUrl, 'https://checkout.razorpay.com/v1/checkout.js');
    const policy = directives(String((await t.app.inject({ url: '/app/' })).headers['content-security-policy']));
    // checkout.js loads scripts from cdn.razorpay.com, frames api.razorpay.com and reports to lumberjack.razorpay.com.
    assert.equal(policy['script-src'], "'self' https://*.razorpay.com");
    assert.equal(policy['frame-src'], 'https://*.razorpay.com');
    assert.equal(policy['connect-src'], "'self' https://*.razorpay.com");
  } finally {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('RAZORPAY_CHECKOUT_URL must be an http(s) URL: the pages\' policy is built from it', () => {
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:', RAZORPAY_CHECKOUT_URL: CHECKOUT }).webApps.checkoutUrl, CHECKOUT);
  for (const value of ['javascript:alert(1)', 'ftp://example.com/checkout.js', '//checkout.example.com/checkout.js', 'https://x.example/a b.js', "https://x.example/'self'", 'https://x.example;script-src', 'https://x.example;script-src *', 'http://127.0.0.1:99999/v1/checkout.js']) {
    assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', RAZORPAY_CHECKOUT_URL: value }), (error: unknown) => error instanceof ConfigError && /RAZORPAY_CHECKOUT_URL/.test(error.message), value);
  }
});

test('MAP_TILE_URL must be a tile template whose host cannot end a directive of the pages\' policy', () => {
  for (const value of ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', 'http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png']) {
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:', MAP_TILE_URL: value }).webApps.mapTileUrl, value);
  }
  for (const value of ['https://tiles.example;script-src *;/{z}/{x}/{y}.png', 'https://tiles.example/{z}/{x}.png', 'javascript:{z}{x}{y}', 'http://127.0.0.1:99999/{z}/{x}/{y}.png', "https://tiles.example/'self'/{z}/{x}/{y}"]) {
    assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', MAP_TILE_URL: value }), (error: unknown) => error instanceof ConfigError && /MAP_TILE_URL/.test(error.message), value);
  }
});
