import type { Tx, Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { toIso } from '../../platform/clock.ts';
import { forbidden } from '../../platform/errors.ts';
import { toPage, type PageQuery } from '../../platform/pagination.ts';
import { ERASED_NAME, erasedEmail } from '../auth/account-lifecycle.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { Account } from '../auth/auth.schemas.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import * as repository from './accounts.repository.ts';
import type { AuditTrail } from './audit.ts';
import type { AccountQuery, AdminUser, CreateUserBody, DeletionRequest } from './admin.schemas.ts';

type Page = { items: Account[]; nextCursor: string | null };

/** What the audit trail keeps of an account: never its name or e-mail, which erasure must be able to take back. */
const trailOf = (account: Account) => ({ role: account.role, status: account.status, statusReason: account.statusReason });

/** Operators' changes to accounts; each change and its audit entry commit together. */
export class AdminAccounts {
  readonly #transactions: Transactions;
  readonly #auth: AuthService;
  readonly #audit: AuditTrail;

  constructor(deps: { transactions: Transactions; auth: AuthService; audit: AuditTrail }) {
    this.#transactions = deps.transactions;
    this.#auth = deps.auth;
    this.#audit = deps.audit;
  }

  /** Onboards a rider, driver or operator without the e-mail code round trip. */
  async create(actor: Actor, body: CreateUserBody): Promise<AdminUser> {
    // Hashing is slow on purpose: done before the unit, so no transaction waits on it.
    const passwordHash = await hashPassword(body.password);
    return this.#transactions.run(async (tx) => {
      const user = await this.#auth.createAccount(tx, { name: body.name, email: body.email, passwordHash, role: body.role });
      await this.#audit.record(tx, { actor, action: 'user.create', target: { type: 'user', id: user.id }, after: user });
      return user;
    });
  }

  /** Refuses the account's logins and ends its tokens on every instance within a second. */
  async block(actor: Actor, userId: number, reason: string): Promise<Account> {
    notOwn(actor, userId, 'block');
    const account = await this.#change(actor, userId, 'user.block', (tx) => this.#auth.accounts.block(tx, userId, reason.trim()));
    await this.#auth.accounts.closed(userId);
    return account;
  }

  async unblock(actor: Actor, userId: number): Promise<Account> {
    return this.#change(actor, userId, 'user.unblock', (tx) => this.#auth.accounts.unblock(tx, userId));
  }

  /**
   * Erasure: the person's name, e-mail, password, emergency contact and order notes go, also from
   * earlier audit entries; the account row, its rides, payments and the audit entries stay.
   */
  async erase(actor: Actor, userId: number): Promise<Account> {
    notOwn(actor, userId, 'erase');
    const account = await this.#change(actor, userId, 'user.delete', async (tx) => {
      const change = await this.#auth.accounts.erase(tx, userId);
      await forgetInTrail(tx, userId, change.erased);
      return change;
    });
    await this.#auth.accounts.closed(userId);
    return account;
  }

  async #change(actor: Actor, userId: number, action: string, work: (tx: Tx) => Promise<{ before: Account; after: Account }>): Promise<Account> {
    return this.#transactions.run(async (tx) => {
      const { before, after } = await work(tx);
      await this.#audit.record(tx, { actor, action, target: { type: 'user', id: userId }, before: trailOf(before), after: trailOf(after) });
      return after;
    });
  }
}

/** Operators' lists of accounts. */
export class AccountDirectory {
  readonly #auth: Pick<AuthService, 'accounts'>;
  readonly #settings: Pick<SettingsService, 'deletionRequests'>;

  constructor(deps: { auth: Pick<AuthService, 'accounts'>; settings: Pick<SettingsService, 'deletionRequests'> }) {
    this.#auth = deps.auth;
    this.#settings = deps.settings;
  }

  list(query: AccountQuery): Promise<Page> {
    return this.#auth.accounts.list({ role: query.role, status: query.status, q: query.q?.trim() || undefined }, toPage(query));
  }

  /** Accounts whose users asked to be deleted (the settings flag, which erasure clears) and since when, newest settings rows first. */
  async deletionRequests(query: PageQuery): Promise<{ items: DeletionRequest[]; nextCursor: string | null }> {
    const { requests, nextCursor } = await this.#settings.deletionRequests(toPage(query));
    const accounts = await this.#auth.accounts.find(requests.map((request) => request.userId));
    const items = requests.flatMap(({ userId, requestedAt }) => {
      const account = accounts.get(userId);
      return account ? [{ ...account, deletionRequestedAt: toIso(requestedAt) }] : [];
    });
    return { items, nextCursor };
  }
}

function notOwn(actor: Actor, userId: number, verb: string): void {
  if (actor.id === userId) throw forbidden(`Operators cannot ${verb} their own account`, 'OWN_ACCOUNT');
}

/**
 * Replaces the erased name and e-mail where earlier audit entries quoted them (an account's creation
 * does): a field that is the name, and the e-mail anywhere. A name inside free text cannot be told
 * from the same word meaning something else, so it is left alone.
 */
async function forgetInTrail(tx: Tx, userId: number, erased: { name: string; email: string }): Promise<void> {
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') return value === erased.name ? ERASED_NAME : value.replaceAll(erased.email, erasedEmail(userId));
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replace(inner)]));
    return value;
  };
  const rewrite = (text: string | null) => (text === null ? null : JSON.stringify(replace(JSON.parse(text))));
  for (const entry of await repository.entriesNaming(tx.db, userId, erased.email)) {
    await repository.rewriteEntry(tx.db, { id: entry.id, before: rewrite(entry.before), after: rewrite(entry.after) });
  }
}
