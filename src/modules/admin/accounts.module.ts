import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { Refunds } from '../payments/refunds.service.ts';
import type { RideCancellation } from '../rides/ride-cancellation.service.ts';
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
  drivers: Pick<DriversService, 'goOffline'>;
  rides: Pick<RideCancellation, 'cancelOpenOf'>;
  log: FastifyBaseLogger;
}

/** The operators' jobs on people and money: accounts (create, list, block, erase, deletion requests) and refunds. */
export interface AccountOperations {
  accounts: AdminAccounts;
  directory: AccountDirectory;
  refunds: AdminRefunds;
}

export function createAccountOperations(deps: AccountOperationsDependencies): AccountOperations {
  const { transactions, audit, auth, settings, payments, drivers, log } = deps;
  // An erasure also forgets what the person left in other modules, and takes their open rides (with
  // the places they typed) off every list; a blocked or erased driver leaves the map.
  auth.accounts.onErase((tx, userId) => deps.rides.cancelOpenOf(tx, userId, "The rider's account was erased"));
  auth.accounts.onErase((tx, userId) => settings.erase(tx, userId));
  auth.accounts.onErase((tx, userId) => payments.eraseTextOf(tx, userId));
  auth.accounts.onClosed((userId) => drivers.goOffline(userId).catch((error: unknown) => log.warn({ err: error, userId }, 'closed account not taken off the map')));
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
