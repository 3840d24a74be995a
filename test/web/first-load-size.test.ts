import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

// What a phone downloads before an app shows anything: the page's module script and every chunk it
// preloads, as the server sends them (brotli). Issue 33: under 200 KB per app, and the languages other
// than English not among them (they load when chosen). Reads the build in web/dist (`node web/build.ts`;
// `npm install` makes it).

const DIST = join(import.meta.dirname, '../../web/dist');
const LIMIT = 200 * 1024;
const APPS = { rider: 'index.html', driver: 'driver/index.html', ops: 'ops/index.html', share: 'share/index.html' };

function firstLoad(html: string): string[] {
  const scripts = [...html.matchAll(/<script type="module"[^>]*src="\/app\/([^"]+\.js)"/g), ...html.matchAll(/<link rel="modulepreload"[^>]*href="\/app\/([^"]+\.js)"/g)];
  return scripts.map((match) => match[1]);
}

describe('first-load JavaScript of each app', () => {
  test('the apps are built', () => assert.ok(existsSync(join(DIST, 'index.html')), 'web/dist is not built: node web/build.ts'));

  for (const [app, page] of Object.entries(APPS)) {
    test(`${app}: under 200 KB brotli, without the other languages`, (t) => {
      const files = firstLoad(readFileSync(join(DIST, page), 'utf8'));
      assert.ok(files.length > 0, 'the page loads a script');
      assert.deepEqual(files.filter((file) => /i18n-/.test(file)), [], 'no language file in the first load');
      const bytes = files.reduce((sum, file) => sum + statSync(join(DIST, `${file}.br`)).size, 0);
      t.diagnostic(`${app}: ${(bytes / 1024).toFixed(1)} KB`);
      assert.ok(bytes < LIMIT, `${app} loads ${(bytes / 1024).toFixed(1)} KB of JavaScript first (brotli), over ${LIMIT / 1024} KB`);
    });
  }

  test("Hindi and Kannada are chunks of their own, loaded on demand, the console's apart", () => {
    const chunks = readdirSync(join(DIST, 'assets')).filter((file) => /^i18n-.*\.js$/.test(file));
    // i18n-<module>-<8-character hash>.js
    assert.deepEqual(chunks.map((file) => file.slice('i18n-'.length, -'-12345678.js'.length)).sort(), ['hi', 'kn', 'ops-hi', 'ops-kn']);
  });
});
