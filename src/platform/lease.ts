import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Leadership of one job among instances: whoever holds the lease runs it. `hold()` takes or renews
 * it and says whether this instance holds it now; a holder that dies loses it within `ttlMs`.
 */
export interface Lease {
  hold(): Promise<boolean>;
  release(): Promise<void>;
}

/** One instance alone: it always leads. */
export class LocalLease implements Lease {
  async hold(): Promise<boolean> {
    return true;
  }

  async release(): Promise<void> {}
}

// Take the lease if free, renew it if ours; answers 1 when we hold it.
const HOLD = `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

type Script = (key: string, ...args: Array<string | number>) => Promise<number>;

/** A lease in Redis: a key holding this instance's random id, with an expiry renewed by `hold()`. */
export class RedisLease implements Lease {
  readonly #key: string;
  readonly #ttlMs: number;
  readonly #id = randomUUID();
  readonly #hold: Script;
  readonly #release: Script;

  constructor(redis: Redis, name: string, ttlMs: number) {
    this.#key = `lease:${name}`;
    this.#ttlMs = ttlMs;
    redis.defineCommand('leaseHold', { numberOfKeys: 1, lua: HOLD });
    redis.defineCommand('leaseRelease', { numberOfKeys: 1, lua: RELEASE });
    const commands = redis as unknown as Record<'leaseHold' | 'leaseRelease', Script>;
    this.#hold = commands.leaseHold.bind(redis);
    this.#release = commands.leaseRelease.bind(redis);
  }

  async hold(): Promise<boolean> {
    try {
      return (await this.#hold(this.#key, this.#id, this.#ttlMs)) === 1;
    } catch {
      // Redis unreachable: nobody can prove leadership, so nobody leads until it returns.
      return false;
    }
  }

  async release(): Promise<void> {
    await this.#release(this.#key, this.#id).catch(() => undefined);
  }
}
