import type { AddressInfo } from 'node:net';
import packageJson from '../package.json' with { type: 'json' };
import { buildApp } from './app.ts';
import { configOrExplain } from './config.ts';
import { humanBanner, startupSummary } from './platform/banner.ts';

const config = configOrExplain() ?? process.exit(1);

const app = await buildApp(config);

// SIGTERM/SIGINT: stop accepting, finish requests in flight, flush buffers, close connections, exit 0.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
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
  });
}

await app.listen({ port: config.port, host: config.host });
const summary = startupSummary(config, app.server.address() as AddressInfo, packageJson.version);
app.log.info({ startup: summary }, `ride-hailing API ${summary.version} ready at ${summary.urls.api}`);
if (process.stdout.isTTY) console.log(humanBanner(summary));
