import type { Tx } from '../db/transaction.ts';

/**
 * How one module reacts to what another did: the emitter names the event (a key of a typed map,
 * src/events.ts) and never the modules that react; each module subscribes in its own `*.module.ts`.
 *
 * The one rule for order and errors:
 * - An `inUnit` handler runs inside the emitter's unit of work, with its transaction, awaited one
 *   after another in subscription order. A throw aborts the unit: nothing of it is committed and
 *   the emitter's caller gets the error.
 * - An `afterCommit` handler runs once the unit has committed (or at once, for an event emitted
 *   outside any unit with `emitted`). Handlers are called in subscription order, none waiting for
 *   the one before, so a slow one never holds back the next. A throw or a rejection is logged with
 *   the event's name and reaches neither the other handlers nor the emitter's caller.
 */
export type UnitHandler<P> = (tx: Tx, payload: P) => Promise<void> | void;
export type CommittedHandler<P> = (payload: P) => Promise<void> | void;
/** Where a failed afterCommit handler is reported (the service's logger). */
export interface FailureLog {
  warn(details: object, message: string): void;
}

const SETTLED: Promise<void> = Promise.resolve();
const nothing = (): void => {};

export class DomainEventDispatcher<E extends object> {
  readonly #inUnit = new Map<keyof E, Array<UnitHandler<never>>>();
  readonly #afterCommit = new Map<keyof E, Array<CommittedHandler<never>>>();
  readonly #log: FailureLog;

  constructor(log: FailureLog) {
    this.#log = log;
  }

  /** Runs `handler` inside the unit of work that emits `name`; its throw aborts that unit. */
  inUnit<K extends keyof E>(name: K, handler: UnitHandler<E[K]>): void {
    this.#inUnit.set(name, [...(this.#inUnit.get(name) ?? []), handler]);
  }

  /** Runs `handler` once what emitted `name` has committed; its throw is logged, nothing more. */
  afterCommit<K extends keyof E>(name: K, handler: CommittedHandler<E[K]>): void {
    this.#afterCommit.set(name, [...(this.#afterCommit.get(name) ?? []), handler]);
  }

  /** Inside a unit of work: the `inUnit` handlers now, the `afterCommit` ones once the unit commits. */
  async emit<K extends keyof E>(tx: Tx, name: K, payload: E[K]): Promise<void> {
    const inUnit = this.#inUnit.get(name) as Array<UnitHandler<E[K]>> | undefined;
    if (inUnit) for (const handler of inUnit) await handler(tx, payload);
    if (this.#afterCommit.has(name)) tx.afterCommit(() => void this.#deliver(name, payload));
  }

  /**
   * An event outside any unit of work, for a change already made (a position in the live index):
   * the `afterCommit` handlers now. Settles once every handler has, so the caller may answer after
   * the reactions; never rejects because of a handler.
   */
  emitted<K extends keyof E>(name: K, payload: E[K]): Promise<void> {
    // Such an event has no unit for a handler to write in, or to abort.
    if (this.#inUnit.has(name)) throw new Error(`${String(name)} has handlers inside a unit of work: emit it in one`);
    return this.#deliver(name, payload);
  }

  /**
   * Calls each handler in order, none waiting for the one before, and settles once those that
   * answered a promise have. Without an async wrapper per handler and a Promise.all of them: a
   * position has three reactions, most of which find nothing to do, and this runs for every report.
   */
  #deliver<K extends keyof E>(name: K, payload: E[K]): Promise<void> {
    const handlers = this.#afterCommit.get(name) as Array<CommittedHandler<E[K]>> | undefined;
    if (!handlers) return SETTLED;
    let pending: Promise<void> | Array<Promise<void>> | undefined;
    for (const handler of handlers) {
      let reaction: Promise<void> | void;
      try {
        reaction = handler(payload);
      } catch (error) {
        this.#failed(name, error);
        continue;
      }
      if (!reaction) continue;
      const settled = reaction.then(undefined, (error: unknown) => this.#failed(name, error));
      if (pending === undefined) pending = settled;
      else if (Array.isArray(pending)) pending.push(settled);
      else pending = [pending, settled];
    }
    if (pending === undefined) return SETTLED;
    return Array.isArray(pending) ? Promise.all(pending).then(nothing) : pending;
  }

  #failed(name: keyof E, error: unknown): void {
    this.#log.warn({ err: error, event: name }, `${String(name)}: a handler failed after commit`);
  }
}
