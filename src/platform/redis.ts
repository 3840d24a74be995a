import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { unavailable } from './errors.ts';

/**
 * A Redis client that fails fast while Redis is down (no offline queue, 1 s command timeout)
 * and keeps reconnecting in the background, so requests get a 503 instead of hanging.
 */
export function createRedis(url: string, keyPrefix: string, log: FastifyBaseLogger, options: { subscriber?: boolean; name?: string } = {}): Redis {
  const client = new Redis(url, {
    keyPrefix,
    // CLIENT LIST shows it (operators, and tests that cut one connection).
    connectionName: options.name,
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

/**
 * Waits until the client is connected, at most `timeoutMs`: undefined once it is, else what kept
 * it away (its last connection error), so a service that cannot reach Redis at start-up can say why.
 */
export async function untilReady(client: Redis, timeoutMs = 5_000): Promise<Error | undefined> {
  if (client.status === 'ready') return undefined;
  let lastError: Error = new Error(`no answer within ${timeoutMs / 1000} s`);
  const remember = (error: Error) => (lastError = error);
  client.on('error', remember);
  try {
    return await new Promise<Error | undefined>((resolve) => {
      const timer = setTimeout(() => done(lastError), timeoutMs);
      const ready = () => done(undefined);
      client.once('ready', ready);
      function done(outcome: Error | undefined) {
        clearTimeout(timer);
        client.off('ready', ready);
        resolve(outcome);
      }
    });
  } finally {
    client.off('error', remember);
  }
}
