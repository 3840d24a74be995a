// Fills Redis's driver index with the nearby scenarios' drivers (--drivers=N), for bench/service.ts in
// production mode. A process of its own: a million upserts leave the filling process some 200 MB
// larger, which the service's RSS row would otherwise count although no instance fills Redis itself.
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { RedisDriverIndex } from '../src/platform/geo/redis-driver-index.ts';
import { createRedis, untilReady } from '../src/platform/redis.ts';
import { systemClock } from '../src/platform/clock.ts';
import { driverPositions } from './lib/drivers.ts';

const config = loadConfig();
const drivers = Number(/--drivers=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 0);
const redis = createRedis(config.redisUrl!, config.redisKeyPrefix, pino({ level: 'warn' }));
await untilReady(redis);
const index = new RedisDriverIndex(redis, systemClock);
const pending: Array<Promise<void>> = [];
for (const position of driverPositions(drivers, Date.now())) {
  pending.push(index.upsert(position));
  if (pending.length === 2000) await Promise.all(pending.splice(0));
}
await Promise.all(pending);
redis.disconnect();
