import type { Clock } from '../clock.ts';

/**
 * Which tokens this instance still accepts, per user: every token carries its account's token
 * version (`ver`), and a change that must end earlier tokens (role, password, block, erasure)
 * raises the version. Checked on every request from memory; the auth module keeps it current on
 * every instance (announcements on the event bus, and a poll of the database behind them).
 * Memory holds only users whose tokens ended within the longest access-token lifetime.
 */
export class RevokedTokens {
  readonly #clock: Clock;
  /** How long a raise matters: the longest lifetime of a token it could refuse. */
  readonly keepMs: number;
  readonly #minimum = new Map<number, { version: number; until: number }>();
  readonly #listeners = new Set<(userId: number) => void>();
  readonly #announcers: Array<(userId: number, version: number) => void> = [];

  /** `keepMs`: how long a raise matters; after the longest token lifetime every older token has expired anyway. */
  constructor(clock: Clock, keepMs: number) {
    this.#clock = clock;
    this.keepMs = keepMs;
  }

  /** Whether a token of this version is still good for the user. */
  accepts(userId: number, version: number): boolean {
    const minimum = this.#minimum.get(userId);
    return minimum === undefined || version >= minimum.version;
  }

  /** From now on only tokens of `version` or later work for the user; listeners hear of it once. */
  raise(userId: number, version: number): void {
    const known = this.#minimum.get(userId);
    if (known && known.version >= version) return;
    this.#minimum.set(userId, { version, until: this.#clock.now() + this.keepMs });
    for (const listener of this.#listeners) listener(userId);
  }

  /** A change made on this instance: raised here at once, and told to the other instances. */
  announce(userId: number, version: number): void {
    this.raise(userId, version);
    for (const announcer of this.#announcers) announcer(userId, version);
  }

  /** How announcements reach the other instances (the event bus). */
  onAnnounce(announcer: (userId: number, version: number) => void): void {
    this.#announcers.push(announcer);
  }

  /** Hears every user whose earlier tokens just ended on this instance (to close their live connections). */
  onRevoked(listener: (userId: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Forgets raises older than every token they could refuse. */
  prune(): void {
    const now = this.#clock.now();
    for (const [userId, { until }] of this.#minimum) if (until <= now) this.#minimum.delete(userId);
  }
}
