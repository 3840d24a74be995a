import type { FastifyBaseLogger } from 'fastify';

/** Entries per write call; a flush of more goes in several calls. */
export const CHUNK_SIZE = 200;

export interface CoalescingWriterOptions<V> {
  /** How a new value for a pending key combines with the old one; the new one replaces it by default. */
  merge?: (pending: V, next: V) => V;
  /** Whether a failed write may succeed later (an outage) rather than never (bad data); retried by default. */
  retryable?: (error: unknown) => boolean;
}

/**
 * Keeps one pending value per key and writes everything pending once per interval, so a stream of
 * updates costs a few transactions per interval instead of one per update. Large batches go in
 * chunks with a turn of the event loop between them, so requests keep flowing. When a chunk fails,
 * its entries are written one by one: one that fails alone for good is dropped and logged, the
 * rest are written (or, during an outage, kept for the next interval). close() writes what is left.
 */
export class CoalescingWriter<K, V> {
  readonly #pending = new Map<K, V>();
  /** The batch being written: still part of what get() answers until its write has finished. */
  readonly #writing = new Map<K, V>();
  readonly #write: (entries: Array<[K, V]>) => Promise<void>;
  readonly #log: FastifyBaseLogger;
  readonly #merge: (pending: V, next: V) => V;
  readonly #retryable: (error: unknown) => boolean;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> = Promise.resolve();

  constructor(write: (entries: Array<[K, V]>) => Promise<void>, intervalMs: number, log: FastifyBaseLogger, options: CoalescingWriterOptions<V> = {}) {
    this.#write = write;
    this.#log = log;
    this.#merge = options.merge ?? ((_pending, next) => next);
    this.#retryable = options.retryable ?? (() => true);
    this.#timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  set(key: K, value: V): void {
    const pending = this.#pending.get(key);
    this.#pending.set(key, pending === undefined ? value : this.#merge(pending, value));
  }

  /** The value not yet written for a key, if any: what waits, combined with what is being written. */
  get(key: K): V | undefined {
    const pending = this.#pending.get(key);
    const writing = this.#writing.get(key);
    if (writing === undefined) return pending;
    return pending === undefined ? writing : this.#merge(writing, pending);
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
    for (let start = 0; start < batch.length; start += CHUNK_SIZE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = batch.slice(start, start + CHUNK_SIZE);
      for (const [key, value] of chunk) this.#writing.set(key, value);
      try {
        await this.#write(chunk);
      } catch (error) {
        if (this.#retryable(error)) this.#putBack(chunk, error);
        else await this.#writeOneByOne(chunk);
      } finally {
        for (const [key] of chunk) this.#writing.delete(key);
      }
    }
  }

  async #writeOneByOne(chunk: Array<[K, V]>): Promise<void> {
    for (const entry of chunk) {
      try {
        await this.#write([entry]);
      } catch (error) {
        if (this.#retryable(error)) this.#putBack([entry], error);
        else this.#log.error({ err: error, key: entry[0] }, 'batched entry cannot be written; dropped');
      }
    }
  }

  // Put back what has not been superseded meanwhile (merged with it when values add up).
  #putBack(entries: Array<[K, V]>, error: unknown): void {
    for (const [key, value] of entries) {
      const newer = this.#pending.get(key);
      this.#pending.set(key, newer === undefined ? value : this.#merge(value, newer));
    }
    this.#log.error({ err: error, entries: entries.length }, 'batched write failed; will retry');
  }
}
