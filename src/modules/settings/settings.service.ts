import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { ServiceBus } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { Language } from '../../platform/vocabulary.ts';
import { Languages } from './languages.ts';
import * as repository from './settings.repository.ts';
import { DEFAULT_SETTINGS, type Settings, type SettingsUpdate, type SettingsValues } from './settings.schemas.ts';

/** Per-user preferences, created with the defaults on first use. */
export class SettingsService {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #clock: Clock;
  readonly #bus: Pick<ServiceBus, 'publish'>;
  readonly #languages: Languages;

  constructor(deps: { db: Db; transactions: Transactions; clock: Clock; bus: Pick<ServiceBus, 'publish'> }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#clock = deps.clock;
    this.#bus = deps.bus;
    this.#languages = new Languages(deps);
  }

  async get(userId: number): Promise<Settings> {
    const existing = await repository.findByUser(this.#db, userId);
    if (existing) return existing;
    return this.#transactions.run(async (tx) => {
      await repository.insertIfMissing(tx.db, userId, DEFAULT_SETTINGS, this.#clock.now());
      return (await repository.findByUser(tx.db, userId))!;
    });
  }

  /** The user's default payment method, without creating their settings. */
  async paymentMethodOf(userId: number): Promise<SettingsValues['defaultPaymentMethod']> {
    return (await repository.findByUser(this.#db, userId))?.defaultPaymentMethod ?? DEFAULT_SETTINGS.defaultPaymentMethod;
  }

  /** Who to tell in an emergency, as the user typed it ('' when none): the safety module sends them the trip's link on an SOS. */
  async emergencyContactOf(userId: number): Promise<string> {
    return (await repository.findByUser(this.#db, userId))?.emergencyContact ?? DEFAULT_SETTINGS.emergencyContact;
  }

  /** Whether the user shares their trips (others then see the driver's position during the ride). */
  async sharesTrips(userId: number): Promise<boolean> {
    return (await repository.findByUser(this.#db, userId))?.tripSharingDefault ?? DEFAULT_SETTINGS.tripSharingDefault;
  }

  /** The language the service's texts to each of these users are in (English when they chose none), from a cache (languages.ts). */
  languagesOf(userIds: readonly number[]): Promise<Map<number, Language>> {
    return this.#languages.of(userIds);
  }

  languageOf(userId: number): Promise<Language> {
    return this.#languages.ofUser(userId);
  }

  /** Another instance changed the user's language: what this one remembers of it goes. */
  forgetLanguage(userId: number): void {
    this.#languages.forget(userId);
  }

  /** Inside an account's erasure: the emergency contact (a phone number or a name) goes, and the deletion request is done. */
  erase(tx: Tx, userId: number): Promise<void> {
    return repository.erase(tx.db, userId, this.#clock.now());
  }

  /** Users whose settings ask for their account to be deleted (erasure clears the flag), one page. */
  async deletionRequests(page: Page): Promise<{ requests: Array<{ userId: number; requestedAt: number }>; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.deletionRequests(this.#db, page), page.limit);
    // Every open request has its time (the migration that added it gave older ones their last change).
    return { requests: items.map((item) => ({ userId: item.user_id, requestedAt: item.delete_account_requested_at! })), nextCursor };
  }

  /** Applies the given fields; `updatedAt` moves only when a value actually changes. */
  async update(userId: number, patch: SettingsUpdate): Promise<Settings> {
    const { settings, changes } = await this.#transactions.run(async (tx) => {
      await repository.insertIfMissing(tx.db, userId, DEFAULT_SETTINGS, this.#clock.now());
      const current = (await repository.findByUser(tx.db, userId))!;
      const changes = Object.fromEntries(
        Object.entries(patch).filter(([key, value]) => value !== undefined && current[key as keyof Settings] !== value),
      ) as SettingsUpdate;
      if (Object.keys(changes).length === 0) return { settings: current, changes };
      // Strictly later than the previous update, even within the same millisecond.
      const updatedAt = Math.max(this.#clock.now(), Date.parse(current.updatedAt) + 1);
      await repository.update(tx.db, userId, changes, updatedAt);
      return { settings: (await repository.findByUser(tx.db, userId))!, changes };
    });
    if (changes.language !== undefined) {
      // This instance writes to the user in the new language from the next text on; the others once they hear it.
      this.#languages.forget(userId);
      void this.#bus.publish('language.changed', { userId }).catch(() => undefined);
    }
    return settings;
  }
}
