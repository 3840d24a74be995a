import type { Db } from '../../db/database.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Clock } from '../../platform/clock.ts';
import { LANGUAGES, type Language } from '../../platform/vocabulary.ts';
import * as repository from './settings.repository.ts';

/** Users whose language is remembered at once; beyond that the longest-held goes first. */
export const LANGUAGE_CACHE_SIZE = 20_000;
/** The longest a remembered language is trusted: the bound on staleness if another instance's change was not heard. */
export const LANGUAGE_TTL_MS = 5 * 60_000;

/**
 * The language the service writes to each user in, read through a small cache so that telling people
 * about a booking or an offer costs no settings read per notification. A change on this instance
 * forgets the user's entry at once; other instances hear it on the bus (`language.changed`), and
 * should that message be lost, LANGUAGE_TTL_MS bounds how long they keep the old language.
 */
export class Languages {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #cache = new BoundedMap<number, { language: Language; until: number }>(LANGUAGE_CACHE_SIZE);
  /** Moves on every forget, so a read that began before a change does not store what it read. */
  #generation = 0;

  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /** Each user's chosen language; English for one who chose none (null) or has no settings yet. */
  async of(userIds: readonly number[]): Promise<Map<number, Language>> {
    const now = this.#clock.now();
    const found = new Map<number, Language>();
    const missing: number[] = [];
    for (const userId of new Set(userIds)) {
      const entry = this.#cache.get(userId);
      if (entry && entry.until > now) found.set(userId, entry.language);
      else missing.push(userId);
    }
    if (missing.length === 0) return found;
    const generation = this.#generation;
    const chosen = await repository.languagesOf(this.#db, missing);
    for (const userId of missing) {
      const stored = chosen.get(userId);
      const language: Language = LANGUAGES.includes(stored as Language) ? (stored as Language) : 'en';
      found.set(userId, language);
      if (generation === this.#generation) this.#cache.set(userId, { language, until: now + LANGUAGE_TTL_MS });
    }
    return found;
  }

  async ofUser(userId: number): Promise<Language> {
    return (await this.of([userId])).get(userId)!;
  }

  forget(userId: number): void {
    this.#generation++;
    this.#cache.delete(userId);
  }
}
