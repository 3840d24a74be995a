import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import * as repository from './settings.repository.ts';
import { DEFAULT_SETTINGS, type Settings, type SettingsUpdate, type SettingsValues } from './settings.schemas.ts';

/** Per-user preferences, created with the defaults on first use. */
export class SettingsService {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async get(userId: number): Promise<Settings> {
    const existing = await repository.findByUser(this.#db, userId);
    if (existing) return existing;
    await repository.insertIfMissing(this.#db, userId, DEFAULT_SETTINGS, this.#clock.now());
    return (await repository.findByUser(this.#db, userId))!;
  }

  /** The user's default payment method, without creating their settings. */
  async paymentMethodOf(userId: number): Promise<SettingsValues['defaultPaymentMethod']> {
    return (await repository.findByUser(this.#db, userId))?.defaultPaymentMethod ?? DEFAULT_SETTINGS.defaultPaymentMethod;
  }

  /** Applies the given fields; `updatedAt` moves only when a value actually changes. */
  async update(userId: number, patch: SettingsUpdate): Promise<Settings> {
    return this.#db.transaction().execute(async (trx) => {
      await repository.insertIfMissing(trx, userId, DEFAULT_SETTINGS, this.#clock.now());
      const current = (await repository.findByUser(trx, userId))!;
      const changes = Object.fromEntries(
        Object.entries(patch).filter(([key, value]) => value !== undefined && current[key as keyof Settings] !== value),
      ) as SettingsUpdate;
      if (Object.keys(changes).length === 0) return current;
      // Strictly later than the previous update, even within the same millisecond.
      const updatedAt = Math.max(this.#clock.now(), Date.parse(current.updatedAt) + 1);
      await repository.update(trx, userId, changes, updatedAt);
      return (await repository.findByUser(trx, userId))!;
    });
  }
}
