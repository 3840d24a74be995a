import { Redis } from 'ioredis';
import pg from 'pg';

export const POSTGRES_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why production-mode tests cannot run here (PostgreSQL or Redis unreachable), or undefined when they can. */
export async function productionServicesMissing(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
  } catch {
    return `PostgreSQL is not reachable at ${POSTGRES_URL}`;
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch {
    return `Redis is not reachable at ${REDIS_URL}`;
  } finally {
    redis.disconnect();
  }
}

/** A Redis logical database of its own for one test file, emptied first. */
export async function privateRedisDatabase(index: number): Promise<string> {
  const url = new URL(REDIS_URL);
  url.pathname = `/${index}`;
  const redis = new Redis(url.toString());
  await redis.flushdb();
  redis.disconnect();
  return url.toString();
}
