// The real service for the benchmark, optionally with a driver location index (or Redis) filled first
// (--drivers=N): riders could not feed a million positions through the API before the first ones
// go stale after two minutes. Configuration comes from the environment, as for `npm start`.
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DriverLocationIndex } from '../src/platform/geo/driver-index.ts';
import { MemoryDriverIndex } from '../src/platform/geo/memory-driver-index.ts';
import { RedisDriverIndex } from '../src/platform/geo/redis-driver-index.ts';
import { createRedis, untilReady } from '../src/platform/redis.ts';
import { systemClock } from '../src/platform/clock.ts';
import { driverPositions } from './lib/drivers.ts';

const config = loadConfig();
const drivers = Number(/--drivers=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 0);

let driverIndex: DriverLocationIndex | undefined;
if (drivers > 0) {
  const now = Date.now();
  if (config.redisUrl) {
    const redis = createRedis(config.redisUrl, config.redisKeyPrefix, pino({ level: 'warn' }));
    await untilReady(redis);
    const index = new RedisDriverIndex(redis, systemClock);
    const pending: Array<Promise<void>> = [];
    for (const position of driverPositions(drivers, now)) {
      pending.push(index.upsert(position));
      if (pending.length === 2000) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    // The service loads its copy of the positions from Redis at start, as a restarted instance does.
    redis.disconnect();
  } else {
    const index = new MemoryDriverIndex();
    for (const position of driverPositions(drivers, now)) index.upsertNow(position);
    driverIndex = index;
  }
}

const app = await buildApp(config, { driverIndex });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`service listening at ${address}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
