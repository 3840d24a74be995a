import type { FastifyBaseLogger } from 'fastify';

/** How often Redis is asked whether it answers, while connections are open or an outage is being followed. */
export const PROBE_MS = 1_000;

export interface OutageWatchDependencies {
  /** Asks Redis for an answer (its command timeout bounds the wait: a frozen Redis fails it too). */
  ping(): Promise<unknown>;
  /** Whether the subscription that brings other instances' messages is up. */
  subscribed(): boolean;
  /** Uses up the user's next number with no message behind it, and tells their connections (see RedisHub). */
  skip(userId: number): Promise<unknown>;
  /** Whether this instance holds connections (only then is an outage worth watching for). */
  holdsConnections(): boolean;
  /** Tells every connection on this instance that messages may not reach it. */
  interruptAll(): void;
  log: FastifyBaseLogger;
}

/**
 * The realtime hub's view of Redis: down from the first failure (a send, the subscription, a probe)
 * until a probe gets an answer on both connections. Users whose messages could not be sent are
 * remembered, and once Redis answers their next number is skipped, so no client carries on across
 * the hole without being told. Remembered in this process only: if the instance dies during the
 * outage, clients resuming from before it are told only by a Redis that came back empty.
 */
export class OutageWatch {
  readonly #deps: OutageWatchDependencies;
  readonly #timer: NodeJS.Timeout;
  #down = false;
  #probing = false;
  #closed = false;
  readonly #lost = new Set<number>();

  constructor(deps: OutageWatchDependencies) {
    this.#deps = deps;
    this.#timer = setInterval(() => void this.probe(), PROBE_MS).unref();
  }

  /** A message to the user could not be sent: they are told once Redis answers again. */
  lost(userId: number, error: unknown): void {
    this.#lost.add(userId);
    this.unreachable(error);
  }

  unreachable(error: unknown): void {
    if (this.#closed || this.#down) return;
    this.#down = true;
    this.#deps.log.warn({ err: error }, 'Redis unreachable: realtime connections on this instance interrupted until it answers again');
    this.#deps.interruptAll();
  }

  async probe(): Promise<void> {
    if (this.#closed || this.#probing || (!this.#down && this.#lost.size === 0 && !this.#deps.holdsConnections())) return;
    this.#probing = true;
    try {
      await this.#deps.ping();
      if (!this.#deps.subscribed()) throw new Error('the realtime subscription is not back yet');
      if (this.#down) this.#deps.log.info('Redis answers again: realtime connections attach again');
      this.#down = false;
      await Promise.all(
        [...this.#lost].map(async (userId) => {
          await this.#deps.skip(userId);
          this.#lost.delete(userId);
        }),
      );
    } catch (error) {
      this.unreachable(error);
    } finally {
      this.#probing = false;
    }
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }
}
