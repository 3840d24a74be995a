import type { AddressInfo } from 'node:net';
import packageJson from '../package.json' with { type: 'json' };
import { buildApp } from './app.ts';
import { configOrExplain } from './config.ts';
import { humanBanner, startupSummary } from './platform/banner.ts';

const config = configOrExplain() ?? process.exit(1);

let draining = false;
const app = await buildApp(config, { draining: () => draining });

// SIGTERM drains (docs/operations.md): /ready fails and every answer closes its connection at once,
// requests are served for SHUTDOWN_DELAY_SECONDS while balancers notice, then the server stops
// accepting, closes idle connections, finishes requests in flight, sends 1001 to sockets, flushes
// buffers and exits 0. SIGINT (Ctrl-C in a terminal) skips the wait.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (draining) return;
    draining = true;
    const delayMs = signal === 'SIGTERM' ? config.shutdownDelaySeconds * 1000 : 0;
    app.log.info({ signal, delaySeconds: delayMs / 1000 }, 'draining: /ready fails; still serving until the delay ends');
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s after the drain; exiting');
      process.exit(1);
    }, delayMs + 10_000).unref();
    setTimeout(() => {
      app.log.info('shutting down');
      app.close().then(
        () => {
          clearTimeout(forceExit);
          process.exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
    }, delayMs);
  });
}

await app.listen({ port: config.port, host: config.host });
const summary = startupSummary(config, app.server.address() as AddressInfo, packageJson.version);
app.log.info({ startup: summary }, `ride-hailing API ${summary.version} ready at ${summary.urls.api}`);
if (process.stdout.isTTY) console.log(humanBanner(summary));
