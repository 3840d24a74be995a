// Draws each app's PNG icons (web/icons/<app>-192.png, -512.png, -maskable-512.png) from its SVG
// with Debian's Chromium, for the install manifests. Run by hand after an icon changes
// (`node scripts/app-icons.ts`) and commit the PNGs: the build copies them, so neither `npm install`
// nor the build needs a browser or an image library.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const APPS = ['rider', 'driver', 'ops'] as const;
/** The icons' own background: a maskable icon fills its whole square with it. */
const BACKGROUND = '#0b5d4b';

const page = (svg: string, size: number, maskable: boolean) => `<!doctype html>
<style>html,body{margin:0;width:${size}px;height:${size}px;background:${maskable ? BACKGROUND : 'transparent'};display:grid;place-items:center}
img{width:${maskable ? Math.round(size * 0.7) : size}px;height:${maskable ? Math.round(size * 0.7) : size}px}</style>
<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" alt="">`;

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const app of APPS) {
    const svg = readFileSync(new URL(`../web/icons/${app}.svg`, import.meta.url), 'utf8');
    for (const [size, maskable, name] of [[192, false, `${app}-192`], [512, false, `${app}-512`], [512, true, `${app}-maskable-512`]] as const) {
      const tab = await browser.newPage({ viewport: { width: size, height: size } });
      await tab.setContent(page(svg, size, maskable));
      await tab.waitForFunction('document.images[0]?.complete');
      await tab.screenshot({ path: new URL(`../web/icons/${name}.png`, import.meta.url).pathname, omitBackground: !maskable });
      await tab.close();
      console.log(`web/icons/${name}.png`);
    }
  }
} finally {
  await browser.close();
}
