import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';

/** An open transaction, and a place to put what must happen only once it has committed. */
export interface Tx {
  readonly db: Transaction<Database>;
  afterCommit(callback: () => void): void;
}

/** Runs `work` in one transaction; its after-commit callbacks run only if it committed. */
export async function inTransaction<T>(db: Kysely<Database>, work: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await db.transaction().execute((trx) => work({ db: trx, afterCommit: (callback) => callbacks.push(callback) }));
  for (const callback of callbacks) callback();
  return result;
}
