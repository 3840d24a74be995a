import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
// The route options these files declare: `hide` (out of the OpenAPI document) and `public` (no token).
import type {} from '@fastify/swagger';
import type {} from './auth/authenticate.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface WebAppsOptions {
  /** The Vite build (web/dist). */
  root: string;
  mapTileUrl: string;
  /** The payment provider's browser checkout script (RAZORPAY_CHECKOUT_URL). */
  checkoutUrl: string;
  /** DRIVER_APPROVAL_REQUIRED: whether the apps speak of approval at all. */
  driverApprovalRequired: boolean;
}

/** What the apps read at start from /app/config.json: settings that change without a rebuild. */
export interface WebAppSettings {
  mapTileUrl: string;
  /** HTML credit line the tile provider asks for ('' when unknown). */
  mapAttribution: string;
  /** The payment provider's checkout script, loaded when the rider pays online. */
  checkoutUrl: string;
  /** Whether drivers need an operator's approval before offers (DRIVER_APPROVAL_REQUIRED): without it there is no queue to wait in. */
  driverApprovalRequired: boolean;
}

/** Each app's page by the addresses it answers at. */
const PAGES: Record<string, string> = {
  '/app/': 'index.html',
  '/app/driver': 'driver/index.html',
  '/app/driver/': 'driver/index.html',
  '/app/ops': 'ops/index.html',
  '/app/ops/': 'ops/index.html',
};

/** What makes the apps installable and work offline: the service worker (scope /app/) and each app's manifest. */
const INSTALL_FILES = ['sw.js', 'rider.webmanifest', 'driver.webmanifest', 'ops.webmanifest'];

// File names carry a content hash, so a browser may keep them forever; pages must be revalidated
// so that a new build reaches users at their next visit.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/**
 * The rider app (/app/), the driver app (/app/driver), the operator console (/app/ops) and the page of
 * a trip-sharing link (/share/<token>), built by Vite into `root` during `npm install`. Not API
 * operations: hidden from the OpenAPI document.
 * Precompressed .br/.gz files written by the build are served when the browser accepts them.
 */
export async function webApps(app: FastifyInstance, { root, mapTileUrl, checkoutUrl, driverApprovalRequired }: WebAppsOptions): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn(`web apps not served: no build in ${root} (npm install builds it with the dev dependencies; npm run build:web rebuilds it)`);
    return;
  }
  const policy = contentSecurityPolicy(mapTileUrl, checkoutUrl);
  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      const asset = relative(root, path).startsWith(`assets${sep}`);
      void reply.header('cache-control', asset ? IMMUTABLE : REVALIDATE);
      void reply.header('x-content-type-options', 'nosniff');
      if (!asset) void reply.header('content-security-policy', policy);
    },
  });
  const settings: WebAppSettings = { mapTileUrl, mapAttribution: mapTileUrl.includes('openstreetmap.org') ? OSM_ATTRIBUTION : '', checkoutUrl, driverApprovalRequired };
  const route = { config: { public: true }, schema: { hide: true } };

  app.get('/', route, (_request, reply) => reply.redirect('/app/'));
  app.get('/app', route, (_request, reply) => reply.redirect('/app/'));
  for (const [path, file] of Object.entries(PAGES)) app.get(path, route, (_request, reply) => reply.sendFile(file));
  // A trip-sharing link's page (the safety module answers its .json): one page for every token, which
  // it reads from its address; the address must reach no other site, so no Referer leaves it.
  app.get('/share/:token', route, (_request, reply) => reply.header('referrer-policy', 'no-referrer').sendFile('share/index.html'));
  // The worker and the manifests are revalidated like the pages (no-cache), so a new build's worker is seen at once.
  for (const file of INSTALL_FILES) app.get(`/app/${file}`, route, (_request, reply) => reply.sendFile(file));
  app.get('/app/config.json', route, (_request, reply: FastifyReply) => reply.header('cache-control', REVALIDATE).send(settings));
  app.get<{ Params: { file: string } }>('/app/assets/:file', {
    ...route,
    // Hashed file names only: no dot segments, no sub-folders.
    schema: { hide: true, params: { type: 'object', properties: { file: { type: 'string', pattern: '^[\\w-]+(\\.[\\w-]+)+$', maxLength: 100 } } } },
  }, (request, reply) => reply.sendFile(`assets/${request.params.file}`));
  app.get<{ Params: { file: string } }>('/app/icons/:file', {
    ...route,
    schema: { hide: true, params: { type: 'object', properties: { file: { type: 'string', pattern: '^[\\w-]+\\.png$', maxLength: 100 } } } },
  }, (request, reply) => reply.sendFile(`icons/${request.params.file}`));
}

/**
 * Where the payment provider's checkout (web/src/rider/checkout.ts) may load scripts from, open
 * frames on and connect to: the origin of its script. Razorpay's own checkout.js goes on to load
 * scripts from cdn.razorpay.com, open its payment frame on api.razorpay.com and report to
 * lumberjack.razorpay.com, so a checkout served from razorpay.com gets all of razorpay.com's hosts.
 */
function checkoutSources(checkoutUrl: string): string {
  const { origin, hostname } = new URL(checkoutUrl);
  return hostname === 'razorpay.com' || hostname.endsWith('.razorpay.com') ? 'https://*.razorpay.com' : origin;
}

/**
 * The pages hold the user's tokens, so they run only their own scripts (and the payment
 * provider's checkout) and talk only to this service (and the checkout); images may also come
 * from the tile server.
 */
function contentSecurityPolicy(mapTileUrl: string, checkoutUrl: string): string {
  // {s} is a subdomain letter: any subdomain of the tile host.
  const tiles = new URL(mapTileUrl.replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '0'));
  const checkout = checkoutSources(checkoutUrl);
  return [
    "default-src 'self'",
    `script-src 'self' ${checkout}`,
    `frame-src ${checkout}`,
    `img-src 'self' data: ${tiles.protocol}//${tiles.host}`,
    "style-src 'self'",
    `connect-src 'self' ${checkout}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
