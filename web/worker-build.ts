import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type * as Vite from 'vite';
import { INSTALLABLE } from './manifests.ts';
import { writeCompressed } from './precompress.ts';

/** Files of the build the installed apps do not need: the share page (outside the worker's scope) and the compressed copies. */
const LEFT_OUT = /(\.br|\.gz)$|^share\/|^assets\/share-|^sw\.js$/;
/** Pages are kept under the address they are opened at (the installable apps' start addresses). */
const PAGE_ADDRESS: Record<string, string> = Object.fromEntries(Object.values(INSTALLABLE).map((app) => [app.page, app.start]));

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * Builds the service worker (web/src/sw/sw.ts) into `dist/sw.js` once the apps are built: one classic
 * script (no imports, so every browser runs it) that carries the list of the build's files to keep
 * and a hash of them, so each build's worker differs from the last exactly when the apps do.
 */
export async function buildWorker(vite: typeof Vite, dist: string): Promise<void> {
  const kept = (await files(dist)).filter((file) => !LEFT_OUT.test(file)).sort();
  const hash = createHash('sha256');
  for (const file of kept) hash.update(file).update(await readFile(join(dist, file)));
  const version = hash.digest('hex').slice(0, 16);
  const shell = kept.map((file) => PAGE_ADDRESS[file] ?? `/app/${file}`);
  await vite.build({
    configFile: false,
    logLevel: 'warn',
    define: { __SHELL__: JSON.stringify(shell), __VERSION__: JSON.stringify(version) },
    build: {
      outDir: dist,
      emptyOutDir: false,
      target: 'es2022',
      copyPublicDir: false,
      lib: { entry: join(import.meta.dirname, 'src/sw/sw.ts'), formats: ['iife'], name: 'serviceWorker', fileName: () => 'sw.js' },
    },
  });
  // The build's version on the first line too: whoever looks at a worker (or a test) sees which build it keeps.
  const worker = Buffer.concat([Buffer.from(`// build ${version}\n`), await readFile(join(dist, 'sw.js'))]);
  await writeFile(join(dist, 'sw.js'), worker);
  await writeCompressed(join(dist, 'sw.js'), worker);
}
