import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { DriverIndexCopies, MAX_BEHIND_MS } from '../../src/platform/geo/driver-index-copy.ts';
import { createRedis } from '../../src/platform/redis.ts';
import { productionServicesMissing, REDIS_URL } from '../helpers/production.ts';

const missing = await productionServicesMissing();

/** Holds this process's event loop, as a long task or a collection pause would. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

// A copy trusts itself while it has heard from Redis within MAX_BEHIND_MS. When this process itself
// was busy that long, the proof sits unread on the subscription: the copy must not answer 503 for it.
describe('a driver positions copy whose own process was busy', { skip: missing }, () => {
  test('a read right after the event loop was held past MAX_BEHIND_MS is answered from the copy, not refused', async () => {
    const log = pino({ level: 'silent' });
    const prefix = `copy-busy-${process.pid}-${Date.now()}:`;
    const redis = createRedis(REDIS_URL, prefix, log);
    const subscriber = createRedis(REDIS_URL, prefix, log, { subscriber: true });
    const copies = new DriverIndexCopies(redis, subscriber, ['drivers'], { now: () => Date.now() }, log);
    try {
      await copies.start();
      const index = copies.index('drivers');
      await index.upsert({ driverId: 7, lat: 12.97, lon: 77.59, updatedAt: Date.now() });
      busyFor(MAX_BEHIND_MS + 500);
      const found = await index.nearby({ lat: 12.97, lon: 77.59 }, 1, 10, Date.now());
      assert.deepEqual(found.map((driver) => driver.driverId), [7]);
    } finally {
      await copies.close();
      redis.disconnect();
      // KEYS takes no prefix from the client: a plain connection finds and removes this test's keys.
      const plain = new Redis(REDIS_URL);
      const keys = await plain.keys(`${prefix}*`);
      if (keys.length > 0) await plain.del(...keys);
      plain.disconnect();
      subscriber.disconnect();
    }
  });
});
