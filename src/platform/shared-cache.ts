import type { Clock } from './clock.ts';

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
