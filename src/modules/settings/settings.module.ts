import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, ServiceBus } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { SettingsService } from './settings.service.ts';

/** Per-user preferences, and what the settings module reacts to. */
export async function createSettings(deps: { db: Db; transactions: Transactions; clock: Clock; events: DomainEventsDispatcher; bus: ServiceBus }): Promise<SettingsService> {
  const settings = new SettingsService(deps);
  // An erased account's emergency contact goes with it, in the erasure's unit.
  deps.events.inUnit('account.erasing', (tx, { userId }) => settings.erase(tx, userId));
  // A language changed on any instance: this one stops writing to the user in the old one.
  await deps.bus.subscribe('language.changed', ({ userId }) => settings.forgetLanguage(userId));
  return settings;
}
