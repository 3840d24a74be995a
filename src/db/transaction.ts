import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';

/**
 * An open unit of work, and a place to put what must happen only once it has committed.
 * Inside a unit, every query must go through `db` (the unit's transaction): with group commit
 * the connection is held by the batch, so a query on the root handle would wait for itself.
 */
export interface Tx {
  readonly db: Transaction<Database>;
  afterCommit(callback: () => void): void;
}

/** Runs units of work atomically; a unit's promise settles once its changes are durable (or rolled back). */
export interface Transactions {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/** One database transaction per unit: PostgreSQL commits concurrent transactions in parallel. */
export class DirectTransactions implements Transactions {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    const result = await this.#db.transaction().execute((trx) => work({ db: trx, afterCommit: (callback) => callbacks.push(callback) }));
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

/**
 * Group commit for SQLite's single connection: units that arrive while a batch is being written
 * share the next transaction and are all answered after its one COMMIT, so the WAL writes and the
 * fsync are shared while each unit stays durable before it is acknowledged. If any unit fails, the
 * batch is rolled back and every unit runs again alone, so one failure never touches another unit.
 * (Units only change the database through their transaction and defer the rest to after commit,
 * so running one again is safe.)
 */
export class GroupCommit implements Transactions {
  readonly #db: Kysely<Database>;
  readonly #queue: Pending[] = [];
  #draining = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
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
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        if (!(await this.#commit(batch)) && batch.length > 1) {
          for (const unit of batch) await this.#commit([unit]);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Runs the units in one transaction; false (nothing settled) when the batch had to be rolled back. */
  async #commit(batch: Pending[]): Promise<boolean> {
    const done: Array<{ unit: Pending; value: unknown; callbacks: Array<() => void> }> = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          const callbacks: Array<() => void> = [];
          const value = await unit.work({ db: trx, afterCommit: (callback) => callbacks.push(callback) });
          done.push({ unit, value, callbacks });
        }
      });
    } catch (error) {
      if (batch.length > 1) return false;
      batch[0].reject(error);
      return true;
    }
    for (const { unit, value, callbacks } of done) {
      for (const callback of callbacks) callback();
      unit.resolve(value);
    }
    return true;
  }
}
