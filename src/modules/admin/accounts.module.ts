import type { FastifyInstance } from 'fastify';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { Refunds } from '../payments/refunds.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { AccountDirectory, AdminAccounts } from './accounts.service.ts';
import type { AuditTrail } from './audit.ts';
import { refundsRoutes } from './refunds.routes.ts';
import { AdminRefunds } from './refunds.service.ts';

export interface AccountOperationsDependencies {
  transactions: Transactions;
  audit: AuditTrail;
  auth: AuthService;
  settings: SettingsService;
  payments: PaymentsService;
  refunds: Refunds;
}

/** The operators' jobs on people and money: accounts (create, list, block, erase, deletion requests) and refunds. */
export interface AccountOperations {
  accounts: AdminAccounts;
  directory: AccountDirectory;
  refunds: AdminRefunds;
}

export function createAccountOperations(deps: AccountOperationsDependencies): AccountOperations {
  // What an erasure or a block does in other modules, each module says in its own *.module.ts (account.erasing, account.closed).
  const { transactions, audit, auth, settings, payments } = deps;
  return {
    accounts: new AdminAccounts({ transactions, auth, audit }),
    directory: new AccountDirectory({ auth, settings }),
    refunds: new AdminRefunds({ transactions, refunds: deps.refunds, payments, audit }),
  };
}

/** Their routes (prefix /admin). */
export async function accountOperationsRoutes(app: FastifyInstance, { accounts, directory, refunds }: AccountOperations) {
  // Only the services go on: the options given here also carry the prefix, which must not apply twice.
  await app.register(accountsRoutes, { accounts, directory });
  await app.register(refundsRoutes, { refunds });
}
