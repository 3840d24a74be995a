import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { unavailable } from './errors.ts';

/**
 * A Redis client that fails fast while Redis is down (no offline queue, 1 s command timeout)
 * and keeps reconnecting in the background, so requests get a 503 instead of hanging.
 */
export function createRedis(url: string, keyPrefix: string, log: FastifyBaseLogger, options: { subscriber?: boolean } = {}): Redis {
  const client = new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    // A subscriber queues its SUBSCRIBE until connected; commands fail at once instead.
    enableOfflineQueue: options.subscriber === true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: options.subscriber ? undefined : 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    // Commands issued in the same tick (concurrent requests) share one write and one read.
    enableAutoPipelining: options.subscriber !== true,
  });
  let healthy = true;
  client.on('ready', () => {
    if (!healthy) log.info('redis connection restored');
    healthy = true;
  });
  client.on('error', (error: Error) => {
    if (healthy) log.error({ err: error }, 'redis connection lost; retrying');
    healthy = false;
  });
  client.connect().catch(() => {
    // Reported by the error handler above; the client keeps retrying.
  });
  return client;
}

/** Runs a Redis operation; a failure is a 503 for the caller. */
export async function viaRedis<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw unavailable('A shared dependency (Redis) is unavailable; try again shortly', 'REDIS_UNAVAILABLE', error);
  }
}

/** Resolves once the client is connected, or after `timeoutMs` (then /ready shows Redis down until it comes). */
export async function untilReady(client: Redis, timeoutMs = 5_000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
    function done() {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    }
  });
}
