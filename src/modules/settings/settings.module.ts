import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { SettingsService } from './settings.service.ts';

/** Per-user preferences, and what the settings module reacts to. */
export function createSettings(deps: { db: Db; transactions: Transactions; clock: Clock; events: DomainEventsDispatcher }): SettingsService {
  const settings = new SettingsService(deps);
  // An erased account's emergency contact goes with it, in the erasure's unit.
  deps.events.inUnit('account.erasing', (tx, { userId }) => settings.erase(tx, userId));
  return settings;
}
