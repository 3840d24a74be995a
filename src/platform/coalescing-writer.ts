import type { FastifyBaseLogger } from 'fastify';

/**
 * Keeps only the latest value per key and writes everything pending in one batch per interval,
 * so a stream of updates costs one transaction per interval instead of one per update.
 * A failed batch is retried with the next one; close() writes what is left.
 */
export class CoalescingWriter<K, V> {
  readonly #pending = new Map<K, V>();
  readonly #write: (entries: Array<[K, V]>) => Promise<void>;
  readonly #log: FastifyBaseLogger;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> = Promise.resolve();

  constructor(write: (entries: Array<[K, V]>) => Promise<void>, intervalMs: number, log: FastifyBaseLogger) {
    this.#write = write;
    this.#log = log;
    this.#timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  set(key: K, value: V): void {
    this.#pending.set(key, value);
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Writes what is pending now; batches never overlap. */
  flush(): Promise<void> {
    this.#running = this.#running.then(() => this.#writePending());
    return this.#running;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #writePending(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending];
    this.#pending.clear();
    try {
      await this.#write(batch);
    } catch (error) {
      // Put back what has not been superseded meanwhile; the next interval tries again.
      for (const [key, value] of batch) if (!this.#pending.has(key)) this.#pending.set(key, value);
      this.#log.error({ err: error, entries: batch.length }, 'batched write failed; will retry');
    }
  }
}
