import type { FastifyBaseLogger } from 'fastify';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { releaseDue } from './rides.repository.ts';

/** Rides booked ahead moved into dispatch in one unit at most; the next tick takes the rest. */
const RELEASE_BATCH = 200;

export interface RideScheduleDependencies {
  transactions: Transactions;
  events: DomainEventsDispatcher;
  clock: Clock;
  log: FastifyBaseLogger;
  /** SCHEDULE_DISPATCH_LEAD_MINUTES, in ms: how long before its time a ride booked ahead enters dispatch. */
  dispatchLeadMs: number;
  /** How often every instance looks for rides due (a dispatch round's length: a ride due waits at most one round). */
  intervalMs: number;
}

/**
 * The timers of rides booked ahead, kept in the database rather than in any one process: every
 * instance looks every `intervalMs` (and at start) for rides whose lead time has come, and claims
 * them with one conditional update, so each enters dispatch once, whichever instance is up, however
 * many are, and after any restart. The service's clock decides what is due, so tests move time.
 */
export class RideSchedule {
  readonly #deps: RideScheduleDependencies;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: RideScheduleDependencies) {
    this.#deps = deps;
  }

  start(): void {
    void this.tick();
    this.#timer = setInterval(() => void this.tick(), this.#deps.intervalMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One look for rides due; a look already under way is not doubled. */
  tick(): Promise<void> {
    this.#running ??= this.#releaseDue()
      .catch((error: unknown) => this.#deps.log.error({ err: error }, 'rides booked ahead not released; the next tick tries again'))
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  async #releaseDue(): Promise<void> {
    const now = this.#deps.clock.now();
    for (;;) {
      const released = await this.#deps.transactions.run(async (tx) => {
        const rides = await releaseDue(tx.db, now + this.#deps.dispatchLeadMs, now, RELEASE_BATCH);
        for (const ride of rides) await this.#deps.events.emit(tx, 'ride.released', { ride });
        return rides.length;
      });
      if (released < RELEASE_BATCH) return;
    }
  }
}
