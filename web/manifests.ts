import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** The brand colour of the icons and the apps' header; the page colour while an installed app opens. */
const THEME = '#0b5d4b';
const BACKGROUND = '#f3f5f7';

interface InstallableApp {
  /** Its page in web/ (Vite's input). */
  page: string;
  /** Where it is opened; also the manifest's id and scope. */
  start: string;
  name: string;
  shortName: string;
  description: string;
}

/** The three installable apps, by the name of their icons (web/icons/<name>-*.png) and manifest (/app/<name>.webmanifest). */
export const INSTALLABLE: Record<'rider' | 'driver' | 'ops', InstallableApp> = {
  rider: { page: 'index.html', start: '/app/', name: 'Ride', shortName: 'Ride', description: 'Book a ride, follow your driver and pay.' },
  driver: { page: 'driver/index.html', start: '/app/driver', name: 'Ride — driver', shortName: 'Driver', description: 'Go online, take offers and drive rides.' },
  ops: { page: 'ops/index.html', start: '/app/ops', name: 'Ride — operator console', shortName: 'Ride ops', description: 'The service live, rides, accounts and pricing.' },
};

const ICONS = (name: string) => [
  { src: `/app/icons/${name}-192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: `/app/icons/${name}-512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: `/app/icons/${name}-maskable-512.png`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

function manifest(name: string, app: InstallableApp) {
  return {
    id: app.start,
    name: app.name,
    short_name: app.shortName,
    description: app.description,
    lang: 'en',
    start_url: app.start,
    scope: app.start,
    display: 'standalone',
    theme_color: THEME,
    background_color: BACKGROUND,
    icons: ICONS(name),
  };
}

/**
 * Makes the apps installable: links each app's page to its web app manifest and writes the
 * manifests and the PNG icons (drawn once by scripts/app-icons.ts, committed) into the build.
 */
export function appManifests(): Plugin {
  const byPage = new Map(Object.entries(INSTALLABLE).map(([name, app]) => [app.page, name]));
  return {
    name: 'app-manifests',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const name = byPage.get(context.path.replace(/^\//, ''));
        if (!name) return [];
        return [
          { tag: 'link', attrs: { rel: 'manifest', href: `/app/${name}.webmanifest` }, injectTo: 'head' },
          { tag: 'link', attrs: { rel: 'apple-touch-icon', href: `/app/icons/${name}-192.png` }, injectTo: 'head' },
        ];
      },
    },
    async writeBundle(options) {
      const dir = options.dir!;
      await mkdir(join(dir, 'icons'), { recursive: true });
      for (const [name, app] of Object.entries(INSTALLABLE)) {
        await writeFile(join(dir, `${name}.webmanifest`), JSON.stringify(manifest(name, app), null, 2));
        for (const icon of ICONS(name)) await copyFile(join(import.meta.dirname, 'icons', icon.src.slice('/app/icons/'.length)), join(dir, 'icons', icon.src.slice('/app/icons/'.length)));
      }
    },
  };
}
