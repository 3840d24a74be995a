// `npm install` runs this (the `prepare` script) on the project's Node: it builds the web apps into
// web/dist. An install without dev dependencies (npm install --omit=dev) has no Vite; the API then
// runs without the apps, and this says so instead of failing the install.
import { fileURLToPath } from 'node:url';
import type * as Vite from 'vite';
import { buildWorker } from './worker-build.ts';

let vite: typeof Vite;
try {
  vite = await import('vite');
} catch {
  console.warn('web apps not built: Vite is a dev dependency and is not installed; the API works without them');
  process.exit(0);
}

await vite.build({ configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)), logLevel: 'warn' });
// The service worker last: it lists the files the apps' build wrote.
await buildWorker(vite, fileURLToPath(new URL('./dist', import.meta.url)));
console.log('web apps built into web/dist');
