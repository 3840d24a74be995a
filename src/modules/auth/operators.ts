import type { Db } from '../../db/database.ts';
import * as repository from './auth.repository.ts';

/** Who the operators are now: the accounts an alert for operators (an incident) goes to. */
export class Operators {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The ADMIN accounts that may sign in. */
  ids(): Promise<number[]> {
    return repository.activeAdminIds(this.#db);
  }
}
