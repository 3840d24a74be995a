import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { AuditTrail } from './audit.ts';
import type { AdminUser, CreateUserBody } from './admin.schemas.ts';

/** Operators' work on accounts; each change and its audit entry commit together. */
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
  async create(actor: AuthUser, body: CreateUserBody, requestId: string): Promise<AdminUser> {
    // Hashing is slow on purpose: done before the unit, so no transaction waits on it.
    const passwordHash = await hashPassword(body.password);
    return this.#transactions.run(async (tx) => {
      const user = await this.#auth.createAccount(tx, { name: body.name, email: body.email, passwordHash, role: body.role });
      await this.#audit.record(tx, { actorId: actor.id, action: 'user.create', target: { type: 'user', id: user.id }, after: user, requestId });
      return user;
    });
  }
}
