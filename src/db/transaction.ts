import { channel } from 'node:diagnostics_channel';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.ts';

/**
 * Told of every unit of work as it is handed to `Transactions.run`, in the caller's async context,
 * so tests can see which requests reach the writer (a request refused by reads alone must not).
 * Publishing costs nothing while no one subscribes.
 */
export const unitsOfWork = channel('ride-hailing:unit-of-work');

/**
 * An open unit of work, and a place to put what must happen only once it has committed. The unit's
 * transaction is the only handle that can write: services read through a separate reader that
 * never waits for a unit (on SQLite it is a connection of its own), so no unit can wait for itself.
 */
export interface Tx {
  readonly db: Transaction<Database>;
  afterCommit(callback: () => void): void;
}

export interface UnitOptions {
  /**
   * The unit issues exactly one statement. On PostgreSQL it then runs without BEGIN/COMMIT (the
   * statement is atomic by itself), saving two round trips. Only for a unit whose code shows one
   * statement at a glance (the booking): a second one would not be atomic with the first.
   */
  singleStatement?: boolean;
}

/** Runs units of work atomically; a unit's promise settles once its changes are durable (or rolled back). */
export interface Transactions {
  run<T>(work: (tx: Tx) => Promise<T>, options?: UnitOptions): Promise<T>;
  /** Units handed over together already share one commit (group commit): callers gain nothing by batching them. */
  readonly groupsUnits: boolean;
}

/** One database transaction per unit: PostgreSQL commits concurrent transactions in parallel. */
export class DirectTransactions implements Transactions {
  readonly #db: Kysely<Database>;
  readonly groupsUnits = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async run<T>(work: (tx: Tx) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    if (unitsOfWork.hasSubscribers) unitsOfWork.publish(options);
    const callbacks: Array<() => void> = [];
    const afterCommit = (callback: () => void) => callbacks.push(callback);
    const result = options.singleStatement
      ? // An autocommit connection stands in for the transaction: one statement is its own transaction.
        await this.#db.connection().execute((connection) => work({ db: connection as Transaction<Database>, afterCommit }))
      : await this.#db.transaction().execute((trx) => work({ db: trx, afterCommit }));
    for (const callback of callbacks) callback();
    return result;
  }
}

interface Pending {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 256;
// Compiled once: every unit of a batch runs these.
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK = CompiledQuery.raw('rollback to unit');

/**
 * Group commit for SQLite's one writer connection: units that arrive while a batch is being written
 * share the next transaction and are all answered after its one COMMIT, so the WAL writes and the
 * fsync are shared while each unit stays durable before it is acknowledged. Each unit runs inside
 * a savepoint of its own: a failing unit is rolled back alone and the rest of the batch goes on.
 */
export class GroupCommit implements Transactions {
  readonly #db: Kysely<Database>;
  readonly groupsUnits = true;
  readonly #queue: Pending[] = [];
  #draining = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  run<T>(work: (tx: Tx) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    if (unitsOfWork.hasSubscribers) unitsOfWork.publish(options);
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // Start after the requests that arrived in this turn of the event loop have queued too.
      if (!this.#draining) {
        this.#draining = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, MAX_BATCH));
    } finally {
      this.#draining = false;
    }
  }

  async #commit(batch: Pending[]): Promise<void> {
    const done: Array<{ unit: Pending; value: unknown; callbacks: Array<() => void> }> = [];
    const failed: Array<{ unit: Pending; error: unknown }> = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          const callbacks: Array<() => void> = [];
          await trx.executeQuery(SAVEPOINT);
          try {
            const value = await unit.work({ db: trx, afterCommit: (callback) => callbacks.push(callback) });
            await trx.executeQuery(RELEASE);
            done.push({ unit, value, callbacks });
          } catch (error) {
            await trx.executeQuery(ROLLBACK);
            await trx.executeQuery(RELEASE);
            failed.push({ unit, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of this batch is durable.
      for (const unit of batch) unit.reject(error);
      return;
    }
    for (const { unit, error } of failed) unit.reject(error);
    for (const { unit, value, callbacks } of done) {
      for (const callback of callbacks) callback();
      unit.resolve(value);
    }
  }
}
