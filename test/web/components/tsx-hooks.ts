// Node runs the project's .ts files by stripping their types but cannot read JSX: this module hook
// compiles the web apps' .tsx files as they are imported, with the compiler Vite already uses to
// build them (so the tests need no compiler of their own and read the code the browser gets).
import { readFile } from 'node:fs/promises';
import type { LoadHook } from 'node:module';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

export const load: LoadHook = async (url, context, nextLoad) => {
  // Stylesheets are the build's business (Vite bundles them); a component test has no use for them.
  if (url.startsWith('file:') && url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  if (!url.startsWith('file:') || !url.endsWith('.tsx')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transformWithOxc(await readFile(path, 'utf8'), path, { lang: 'tsx', jsx: { runtime: 'automatic', importSource: 'preact' } });
  return { format: 'module', source: code, shortCircuit: true };
};
