import type { Clock } from './clock.ts';

export interface Hit {
  count: number;
  /** Milliseconds until the window that started with the first hit ends. */
  resetInMs: number;
}

/**
 * Fixed-window counters: rate limits and wrong-OTP tries. The window starts at a key's first hit.
 * In-process by default; Redis when several instances must share the counts.
 */
export interface Counters {
  increment(key: string, windowMs: number): Promise<Hit>;
  get(key: string): Promise<Hit>;
  close(): Promise<void>;
}

export class MemoryCounters implements Counters {
  readonly #entries = new Map<string, { count: number; expiresAt: number }>();
  readonly #clock: Clock;
  readonly #sweeper: NodeJS.Timeout;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#sweeper = setInterval(() => this.#sweep(), 60_000).unref();
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    const now = this.#clock.now();
    let entry = this.#entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      entry = { count: 0, expiresAt: now + windowMs };
      this.#entries.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetInMs: entry.expiresAt - now };
  }

  async get(key: string): Promise<Hit> {
    const now = this.#clock.now();
    const entry = this.#entries.get(key);
    if (!entry || entry.expiresAt <= now) return { count: 0, resetInMs: 0 };
    return { count: entry.count, resetInMs: entry.expiresAt - now };
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#entries.clear();
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}
