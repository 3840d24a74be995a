import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { appManifests } from './manifests.ts';
import { writeCompressed } from './precompress.ts';

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/** Writes a .br and a .gz beside every text file of the build (the server sends them as they are). */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => COMPRESSIBLE.test(file))
          .map(async (file) => writeCompressed(join(dir, file), await readFile(join(dir, file)))),
      );
    },
  };
}

// `npx vite --config web/vite.config.ts` serves the apps with live reload at :5173/app/ and hands
// every API call to the service on :8080 (start it with npm start).
const API = 'http://127.0.0.1:8080';
const proxied = ['/auth', '/rides', '/drivers', '/payments', '/user-settings', '/notifications', '/admin', '/share', '/app/config.json'];

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Vite's preload helper is for browsers without modulepreload; every target here has it.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Code the apps share (Preact, Leaflet, the API client) lands in chunks named after one of its modules; name them plainly.
      // The languages loaded on demand (web/src/i18n) are named after theirs.
      output: { chunkFileNames: (chunk) => (chunk.facadeModuleId?.includes('/src/i18n/') ? 'assets/i18n-[name]-[hash].js' : 'assets/shared-[hash].js') },
      input: {
        rider: join(import.meta.dirname, 'index.html'),
        driver: join(import.meta.dirname, 'driver/index.html'),
        ops: join(import.meta.dirname, 'ops/index.html'),
        share: join(import.meta.dirname, 'share/index.html'),
      },
    },
  },
  plugins: [appManifests(), precompress()],
  server: {
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, API])),
      '/realtime': { target: API, ws: true },
    },
  },
});
