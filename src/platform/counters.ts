import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';
import { viaRedis } from './redis.ts';

export interface Hit {
  count: number;
  /** Milliseconds until the current window ends. */
  resetInMs: number;
}

/**
 * Fixed-window counters (rate limits, wrong ride-code tries). Windows are aligned to the app's
 * clock, so every instance agrees on them; in-process by default, Redis when instances share them.
 */
export interface Counters {
  increment(key: string, windowMs: number): Promise<Hit>;
  close(): Promise<void>;
}

const windowOf = (now: number, windowMs: number) => {
  const index = Math.floor(now / windowMs);
  return { index, resetInMs: (index + 1) * windowMs - now };
};

export class MemoryCounters implements Counters {
  readonly #counts = new Map<string, { count: number; expiresAt: number }>();
  readonly #clock: Clock;
  readonly #sweeper: NodeJS.Timeout;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#sweeper = setInterval(() => this.#sweep(), 60_000).unref();
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    const now = this.#clock.now();
    const { index, resetInMs } = windowOf(now, windowMs);
    const windowKey = `${key}:${index}`;
    const entry = this.#counts.get(windowKey) ?? { count: 0, expiresAt: now + resetInMs };
    entry.count += 1;
    this.#counts.set(windowKey, entry);
    return { count: entry.count, resetInMs };
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#counts.clear();
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#counts) if (entry.expiresAt <= now) this.#counts.delete(key);
  }
}

export class RedisCounters implements Counters {
  readonly #redis: Redis;
  readonly #clock: Clock;

  constructor(redis: Redis, clock: Clock) {
    this.#redis = redis;
    this.#clock = clock;
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    const { index, resetInMs } = windowOf(this.#clock.now(), windowMs);
    const windowKey = `counter:${key}:${index}`;
    // The TTL only cleans up; the window itself is decided by the clock above.
    const count = await viaRedis(
      this.#redis
        .multi()
        .incr(windowKey)
        .pexpire(windowKey, resetInMs + windowMs)
        .exec()
        .then((results) => {
          const [error, value] = results?.[0] ?? [new Error('empty transaction reply'), null];
          if (error) throw error;
          return Number(value);
        }),
    );
    return { count, resetInMs };
  }

  async close(): Promise<void> {}
}

/** After the shared store failed, how long counting stays on this instance before asking it again. */
const RETRY_SHARED_MS = 2_000;

/**
 * Shared counters that keep counting on this instance while the shared store is unreachable, so
 * ride codes can still be checked (and limits still hold) during a Redis outage. The bound is then
 * per instance: with N instances a counter can reach N times its limit until Redis returns.
 */
export class FallbackCounters implements Counters {
  readonly #shared: Counters;
  readonly #local: Counters;
  readonly #onFallback: (error: unknown) => void;
  #failedAt = -Infinity;

  constructor(shared: Counters, local: Counters, onFallback: (error: unknown) => void) {
    this.#shared = shared;
    this.#local = local;
    this.#onFallback = onFallback;
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    // Right after a failure the shared store is not asked: a frozen Redis would make every request wait for its timeout.
    if (performance.now() - this.#failedAt < RETRY_SHARED_MS) return this.#local.increment(key, windowMs);
    try {
      return await this.#shared.increment(key, windowMs);
    } catch (error) {
      this.#failedAt = performance.now();
      this.#onFallback(error);
      return this.#local.increment(key, windowMs);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.#shared.close(), this.#local.close()]);
  }
}
