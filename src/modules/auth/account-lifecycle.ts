import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Role } from '../../platform/auth/roles.ts';
import type { RevokedTokens } from '../../platform/auth/revocations.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import * as repository from './auth.repository.ts';
import type { Account, AccountStatus } from './auth.schemas.ts';
import { endTokens } from './token-revocations.ts';

/** What an erased account shows instead of the person: its e-mail stays unique, and no password matches. */
export const ERASED_NAME = 'Deleted user';
export const erasedEmail = (id: number) => `deleted-${id}@erased.invalid`;
const ERASED_PASSWORD = 'erased';

export interface LifecycleDependencies {
  db: Db;
  revoked: RevokedTokens;
  clock: Clock;
  /** Where an erasure (`account.erasing`, in its unit) and a closed account (`account.closed`) are announced. */
  events: DomainEventsDispatcher;
}

export function toAccount(row: repository.UserRow): Account {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as Role,
    status: row.status as AccountStatus,
    statusReason: row.status_reason,
    statusChangedAt: toIsoOrNull(row.status_changed_at),
    createdAt: toIso(row.created_at),
  };
}

/**
 * An account's life after sign-up, as operators run it: listed, blocked and unblocked, erased.
 * Each change runs inside the caller's transaction (with its audit entry) as one conditional
 * statement; a block and an erasure end every token of the account on every instance.
 */
export class AccountLifecycle {
  readonly #db: Db;
  readonly #revoked: RevokedTokens;
  readonly #clock: Clock;
  readonly #events: DomainEventsDispatcher;

  constructor(deps: LifecycleDependencies) {
    this.#db = deps.db;
    this.#revoked = deps.revoked;
    this.#clock = deps.clock;
    this.#events = deps.events;
  }

  /** Once a block or an erasure has committed: `account.closed` (a driver leaves the map), settled before the operator gets the answer. */
  closed(userId: number): Promise<void> {
    return this.#events.emitted('account.closed', { userId });
  }

  async list(filter: repository.AccountFilter, page: Page): Promise<{ items: Account[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.listUsers(this.#db, filter, page), page.limit);
    return { items: items.map(toAccount), nextCursor };
  }

  async find(ids: readonly number[]): Promise<Map<number, Account>> {
    const rows = await repository.findAccountsByIds(this.#db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, toAccount(row)]));
  }

  /** Refuses the account's logins and ends its tokens; the account before and after. */
  async block(tx: Tx, id: number, reason: string): Promise<{ before: Account; after: Account }> {
    const before = await this.#current(tx, id, 'active', 'blocked');
    const row = await repository.blockUser(tx.db, id, reason, this.#clock.now());
    if (!row) throw changedMeanwhile(id);
    await endTokens(tx, this.#revoked, id, this.#clock.now());
    return { before, after: toAccount(row) };
  }

  /** Lets a blocked account log in again (its old tokens stay ended). */
  async unblock(tx: Tx, id: number): Promise<{ before: Account; after: Account }> {
    const before = await this.#current(tx, id, 'blocked', 'unblocked');
    const row = await repository.unblockUser(tx.db, id, this.#clock.now());
    if (!row) throw changedMeanwhile(id);
    return { before, after: toAccount(row) };
  }

  /**
   * Erasure: name, e-mail and password replaced, the pending sign-up code dropped, tokens ended, and
   * `account.erasing` emitted in the unit, so every module forgets what the person left in its tables. The row stays (rides, payments and the audit trail still point at it, and
   * its id is never reused). Answers the personal data that was erased, for the caller's own records
   * to forget, and the account before and after.
   */
  async erase(tx: Tx, id: number): Promise<{ before: Account; after: Account; erased: { name: string; email: string } }> {
    const current = await repository.findUserById(tx.db, id);
    if (!current) throw notFound(`User ${id} not found`);
    if (current.status === 'deleted') throw conflict(`User ${id} is already erased`, 'ACCOUNT_ERASED');
    const now = this.#clock.now();
    const row = await repository.anonymiseUser(tx.db, id, { name: ERASED_NAME, email: erasedEmail(id), password_hash: ERASED_PASSWORD }, now);
    if (!row) throw changedMeanwhile(id);
    await repository.deleteOtpsOf(tx.db, current.email);
    await endTokens(tx, this.#revoked, id, now);
    await this.#events.emit(tx, 'account.erasing', { userId: id });
    return { before: toAccount(current), after: toAccount(row), erased: { name: current.name, email: current.email } };
  }

  async #current(tx: Tx, id: number, expected: AccountStatus, verb: string): Promise<Account> {
    const row = await repository.findUserById(tx.db, id);
    if (!row) throw notFound(`User ${id} not found`);
    if (row.status !== expected) throw conflict(`User ${id} is ${row.status} and cannot be ${verb}`, 'ACCOUNT_STATUS');
    return toAccount(row);
  }
}

const changedMeanwhile = (id: number) => conflict(`User ${id} changed meanwhile; try again`, 'ACCOUNT_CHANGED');
