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
}

/** What the apps read at start from /app/config.json: settings that change without a rebuild. */
export interface WebAppSettings {
  mapTileUrl: string;
  /** HTML credit line the tile provider asks for ('' when unknown). */
  mapAttribution: string;
}

/** Each app's page by the addresses it answers at. */
const PAGES: Record<string, string> = {
  '/app/': 'index.html',
  '/app/driver': 'driver/index.html',
  '/app/driver/': 'driver/index.html',
  '/app/ops': 'ops/index.html',
  '/app/ops/': 'ops/index.html',
};

// File names carry a content hash, so a browser may keep them forever; pages must be revalidated
// so that a new build reaches users at their next visit.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/**
 * The rider app (/app/), the driver app (/app/driver) and the operator console (/app/ops), built by
 * Vite into `root` during `npm install`. Not API operations: hidden from the OpenAPI document.
 * Precompressed .br/.gz files written by the build are served when the browser accepts them.
 */
export async function webApps(app: FastifyInstance, { root, mapTileUrl }: WebAppsOptions): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn(`web apps not served: no build in ${root} (npm install builds it with the dev dependencies; npm run build:web rebuilds it)`);
    return;
  }
  const policy = contentSecurityPolicy(mapTileUrl);
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
  const settings: WebAppSettings = { mapTileUrl, mapAttribution: mapTileUrl.includes('openstreetmap.org') ? OSM_ATTRIBUTION : '' };
  const route = { config: { public: true }, schema: { hide: true } };

  app.get('/', route, (_request, reply) => reply.redirect('/app/'));
  app.get('/app', route, (_request, reply) => reply.redirect('/app/'));
  for (const [path, file] of Object.entries(PAGES)) app.get(path, route, (_request, reply) => reply.sendFile(file));
  app.get('/app/config.json', route, (_request, reply: FastifyReply) => reply.header('cache-control', REVALIDATE).send(settings));
  app.get<{ Params: { file: string } }>('/app/assets/:file', {
    ...route,
    // Hashed file names only: no dot segments, no sub-folders.
    schema: { hide: true, params: { type: 'object', properties: { file: { type: 'string', pattern: '^[\\w-]+(\\.[\\w-]+)+$', maxLength: 100 } } } },
  }, (request, reply) => reply.sendFile(`assets/${request.params.file}`));
}

/** The payment provider's browser checkout (web/src/rider/checkout.ts): its script and its frames. */
const CHECKOUT = { script: 'https://checkout.razorpay.com', frames: 'https://api.razorpay.com https://checkout.razorpay.com' };

/**
 * The pages hold the user's tokens, so they run only their own scripts (and the payment
 * provider's checkout) and talk only to this service; images may also come from the tile server.
 */
function contentSecurityPolicy(mapTileUrl: string): string {
  // {s} is a subdomain letter: any subdomain of the tile host.
  const tiles = new URL(mapTileUrl.replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '0'));
  return [
    "default-src 'self'",
    `script-src 'self' ${CHECKOUT.script}`,
    `frame-src ${CHECKOUT.frames}`,
    `img-src 'self' data: ${tiles.protocol}//${tiles.host}`,
    "style-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
