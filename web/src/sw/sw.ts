// The apps' service worker (/app/sw.js, scope /app/: the rider app, the driver app and the console).
// It keeps one build's shell (pages, hashed assets, icons, manifests) in a cache named after that
// build and answers the apps' pages and files from it, so an app opens with the network gone; API
// calls pass through untouched (the apps keep the last ride themselves). A new build's worker fills
// its own cache and waits until the app asks it to take over (the "new version" notice) or every
// tab has closed: a page is always served with the files of its own build.
import './push.ts';

declare const self: ServiceWorkerGlobalScope;
/** This build's files (addresses under /app/), written into the worker by the build (web/worker-build.ts). */
declare const __SHELL__: string[];
/** A hash of those files' names and contents: a new build is a new worker, with a new cache. */
declare const __VERSION__: string;

const PREFIX = 'ride-hailing-shell-';
const CACHE = PREFIX + __VERSION__;
/** The apps' pages by the addresses they answer at; a page is kept under its first address. */
const PAGES: Record<string, string> = { '/app/': '/app/', '/app/driver': '/app/driver', '/app/driver/': '/app/driver', '/app/ops': '/app/ops', '/app/ops/': '/app/ops' };
const SHELL = new Set(__SHELL__);
/** Read from the network while there is one (settings change without a build), from the cache without. */
const SETTINGS = '/app/config.json';

self.addEventListener('install', (event) => {
  // `no-cache`: the pages are revalidated, so the cache holds this build's, not an older copy.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...SHELL, SETTINGS].map((url) => new Request(url, { cache: 'no-cache' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      // The first worker takes the pages open now; a later one gets here only once the old pages reload or close.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'take-over') void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const page = request.mode === 'navigate' ? PAGES[url.pathname] : undefined;
  if (page) event.respondWith(cacheFirst(page, request));
  else if (url.pathname === SETTINGS) event.respondWith(networkFirst(request));
  else if (SHELL.has(url.pathname)) event.respondWith(cacheFirst(url.pathname, request));
});

async function cacheFirst(key: string, request: Request): Promise<Response> {
  const cached = await caches.match(key, { cacheName: CACHE });
  return cached ?? fetch(request);
}

async function networkFirst(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      await caches.open(CACHE).then((cache) => cache.put(request.url, copy));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request.url, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}
