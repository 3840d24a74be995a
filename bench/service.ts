// The real service for the benchmark, optionally with a driver location index (or Redis) filled first
// (--drivers=N): riders could not feed a million positions through the API before the first ones
// go stale after two minutes. Configuration comes from the environment, as for `npm start`.
import { spawnSync } from 'node:child_process';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DriverLocationIndex } from '../src/platform/geo/driver-index.ts';
import { MemoryDriverIndex } from '../src/platform/geo/memory-driver-index.ts';
import { driverPositions } from './lib/drivers.ts';

const config = loadConfig();
const drivers = Number(/--drivers=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 0);

let driverIndex: DriverLocationIndex | undefined;
if (drivers > 0) {
  if (config.redisUrl) {
    // The service loads its copy of the positions from Redis at start, as a restarted instance does.
    const filled = spawnSync(process.execPath, [new URL('./fill-redis.ts', import.meta.url).pathname, `--drivers=${drivers}`], { stdio: 'inherit' });
    if (filled.status !== 0) throw new Error(`filling Redis with ${drivers} drivers failed (${filled.status ?? filled.signal})`);
  } else {
    const index = new MemoryDriverIndex();
    for (const position of driverPositions(drivers, Date.now())) index.upsertNow(position);
    driverIndex = index;
  }
}

const app = await buildApp(config, { driverIndex });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`service listening at ${address}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
