import net from 'node:net';
import { buildApp } from './app.ts';
import { configOrExplain } from './config.ts';
import { lockDatabaseFile } from './db/file-lock.ts';
import type { DrainState } from './platform/health.ts';
import { explainStartupFailure, listenFailure, StartupFailure } from './platform/startup-failure.ts';

/** After the listener closes, how long a proxy has to use up its pooled connections before the idle ones are closed. */
const CLOSE_GRACE_MS = 1_000;

const config = configOrExplain() ?? process.exit(1);

// A dependency the configuration points at that cannot be used stops the process with one line
// naming the variable, not a stack trace.
function stop(error: unknown): never {
  if (!(error instanceof StartupFailure)) throw error;
  console.error(explainStartupFailure(error));
  process.exit(1);
}

// One service per SQLite file (db/file-lock.ts).
if (config.database.kind === 'sqlite' && config.database.file !== ':memory:') {
  const { file } = config.database;
  let locked: boolean;
  try {
    locked = lockDatabaseFile(file);
  } catch (error) {
    stop(new StartupFailure('DATABASE_URL', `sqlite:${file}`, error));
  }
  if (!locked) stop(new StartupFailure('DATABASE_URL', `sqlite:${file}`, undefined, 'another service is running on this database file; stop it first, or give this one its own DATABASE_URL'));
}

let drain: DrainState = 'serving';
const app = await buildApp(config, { drain: () => drain }).catch(stop);

// SIGTERM drains (docs/operations.md): /health and /ready fail at once, requests are served for
// SHUTDOWN_DELAY_SECONDS while balancers notice, then the server stops accepting, lets a proxy use up
// its pooled connections (each answer now closes its connection), closes the idle rest, finishes
// requests in flight, sends 1001 to sockets, flushes buffers and exits 0. SIGINT skips the wait.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (drain !== 'serving') return;
    drain = 'draining';
    const delayMs = signal === 'SIGTERM' ? config.shutdownDelaySeconds * 1000 : 0;
    app.log.info({ signal, delaySeconds: delayMs / 1000 }, 'draining: /health and /ready fail; still serving until the delay ends');
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s after the drain; exiting');
      process.exit(1);
    }, delayMs + CLOSE_GRACE_MS + 10_000).unref();
    // In the check phase, right after the event loop accepted every connection waiting: closing the
    // listener then resets none that a proxy already sent a request on. Net's close, not HTTP's, so
    // open connections stay for the grace.
    setTimeout(() => setImmediate(() => {
      drain = 'closing';
      net.Server.prototype.close.call(app.server);
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
      }, CLOSE_GRACE_MS);
    }), delayMs);
  });
}

await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
  await app.close().catch(() => {});
  stop(listenFailure(error, config.host, config.port));
});
