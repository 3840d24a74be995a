import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { allRoutes } from '../../src/contract/routes.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// One contract for every client (issue 27): the route table of src/contract/ matches the server,
// and the clients (the web apps, the simulator, the test helpers) take paths and shapes from it
// instead of writing their own or reaching into the server's files.

const ROOT = resolve(import.meta.dirname, '../..');
const CONTRACT = join(ROOT, 'src/contract');
/** Client code: whatever these hold must come from the contract. */
const CLIENTS = ['web/src', 'simulator', 'test/helpers'];
/** Clients that run apart from the server (in a browser, or as another process against a service anywhere). */
const SEPARATE_CLIENTS = ['web/src', 'simulator'];
/** The contract's only files that re-export server code that runs: pure functions the clients show. */
const RUNTIME_REEXPORTS = ['rules.ts', 'zones.ts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports and re-exports of a file, with whether each brings types only. */
function importsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s)?[^;]*?from\s+'(\.[^']+)'/g)].map((match) => ({
    target: resolve(dirname(file), match[3]),
    typeOnly: match[2] !== undefined,
  }));
}

/** A route path as a client would write it: the path in quotes, each `:param` an interpolation or a literal value. */
const writtenAs = (path: string) => new RegExp(`['"\`]${path.replace(/:\w+/g, '(?:\\$\\{[^}]+\\}|\\d+)')}(?=['"\`?])`);

describe('the contract (src/contract/)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("every route of the table is an operation of the server's OpenAPI document", async () => {
    const document = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as { paths: Record<string, Record<string, unknown>> };
    const missing = allRoutes()
      .map((route) => ({ method: route.method.toLowerCase(), path: route.path.replace(/:(\w+)/g, '{$1}') }))
      .filter(({ method, path }) => document.paths[path]?.[method] === undefined)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(missing, []);
  });

  test('no route is in the table twice', () => {
    const keys = allRoutes().map((route) => `${route.method} ${route.path}`);
    assert.deepEqual(keys.filter((key, i) => keys.indexOf(key) !== i), []);
  });

  test('clients write no path of the table: they call its routes', () => {
    const patterns = allRoutes().map((route) => ({ route, pattern: writtenAs(route.path) }));
    const found = CLIENTS.flatMap((dir) => files(join(ROOT, dir))).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return patterns.filter(({ pattern }) => pattern.test(text)).map(({ route }) => `${relative(ROOT, file)} writes ${route.method} ${route.path}`);
    });
    assert.deepEqual(found, []);
  });

  test('the web apps and the simulator import nothing of the server but the contract', () => {
    const SRC = join(ROOT, 'src');
    const found = SEPARATE_CLIENTS.flatMap((dir) => files(join(ROOT, dir))).flatMap((file) =>
      importsOf(file)
        .filter(({ target }) => target.startsWith(SRC + '/') && !target.startsWith(CONTRACT + '/'))
        .map(({ target }) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`),
    );
    assert.deepEqual(found, []);
  });

  test('the contract brings the server only as types, but for its pure functions', () => {
    const found = files(CONTRACT)
      .filter((file) => !RUNTIME_REEXPORTS.includes(relative(CONTRACT, file)))
      .flatMap((file) => importsOf(file).filter(({ target, typeOnly }) => !typeOnly && !target.startsWith(CONTRACT + '/')).map(({ target }) => `${relative(ROOT, file)} runs ${relative(ROOT, target)}`));
    assert.deepEqual(found, []);
  });

  test("the web apps take the server's live-position rule from the contract instead of writing it again", () => {
    const rewritten = /status === 'ACCEPTED' \|\| [\w.?]*status === 'PICKED'/;
    const found = files(join(ROOT, 'web/src')).filter((file) => rewritten.test(readFileSync(file, 'utf8')));
    assert.deepEqual(found.map((file) => relative(ROOT, file)), []);
    assert.ok(rewritten.test("const on = ride.status === 'ACCEPTED' || ride.status === 'PICKED';"));
  });

  test('the checks above see what they look for', () => {
    // Guards against a check that passes because its pattern matches nothing.
    assert.ok(writtenAs('/rides/status/:rideId').test('call(app, "POST", `/rides/status/${id}`)'));
    assert.ok(writtenAs('/rides/book').test("fetch('/rides/book?x=1')"));
    assert.ok(!writtenAs('/rides/book').test("'/rides/booked'"));
    assert.ok(importsOf(join(ROOT, 'test/web/zone-names.test.ts')).some(({ target }) => target.endsWith('src/platform/geo/zones.ts')));
  });
});
