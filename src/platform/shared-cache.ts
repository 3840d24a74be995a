import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';
import { viaRedis } from './redis.ts';

/** A small key-value cache with expiry, shared by every instance when it lives in Redis. */
export interface SharedCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export class MemoryCache implements SharedCache {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.#clock.now()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlMs });
  }
}

/** Entries carry their expiry by the app's clock; Redis' own TTL only cleans up. */
export class RedisCache implements SharedCache {
  readonly #redis: Redis;
  readonly #clock: Clock;

  constructor(redis: Redis, clock: Clock) {
    this.#redis = redis;
    this.#clock = clock;
  }

  async get(key: string): Promise<string | undefined> {
    const stored = await viaRedis(this.#redis.get(`cache:${key}`));
    if (!stored) return undefined;
    const { expiresAt, value } = JSON.parse(stored) as { expiresAt: number; value: string };
    return expiresAt > this.#clock.now() ? value : undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const entry = JSON.stringify({ expiresAt: this.#clock.now() + ttlMs, value });
    await viaRedis(this.#redis.set(`cache:${key}`, entry, 'PX', ttlMs));
  }
}
