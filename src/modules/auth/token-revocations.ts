import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { ServiceBus } from '../../events.ts';
import type { RevokedTokens } from '../../platform/auth/revocations.ts';
import type { Clock } from '../../platform/clock.ts';
import * as repository from './auth.repository.ts';

/** Every instance reads the token versions raised lately this often, in case an announcement got lost. */
export const REVOCATION_POLL_MS = 500;
// Each poll reads again what changed this long before it: a change whose transaction committed late,
// or was stamped by an instance whose clock is behind, is still found.
const POLL_OVERLAP_MS = 60_000;

/**
 * Inside the transaction of an account change (role, password, block, erasure): every token of the
 * user issued before it ends, refresh tokens included. Once it commits, this instance refuses them
 * at once and the others hear it on the bus.
 */
export async function endTokens(tx: Tx, revoked: RevokedTokens, userId: number, now: number): Promise<void> {
  const version = await repository.raiseTokenVersion(tx.db, userId, now);
  await repository.revokeAllForUser(tx.db, userId, now);
  tx.afterCommit(() => revoked.announce(userId, version));
}

/**
 * Keeps this instance's RevokedTokens current with changes made anywhere, without a database read
 * per request: it loads the raises that still matter at start, hears announcements on the event bus,
 * and polls the database twice a second for any it missed.
 */
export class TokenRevocationSync {
  readonly #deps: { db: Db; bus: ServiceBus; revoked: RevokedTokens; clock: Clock; log: FastifyBaseLogger };
  #since = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: { db: Db; bus: ServiceBus; revoked: RevokedTokens; clock: Clock; log: FastifyBaseLogger }) {
    this.#deps = deps;
  }

  async start(): Promise<void> {
    const { bus, revoked, clock } = this.#deps;
    this.#since = clock.now() - revoked.keepMs;
    await this.#poll();
    revoked.onAnnounce((userId, version) => void bus.publish('tokens.revoked', { userId, version }).catch((error: unknown) => this.#deps.log.warn({ err: error, userId }, 'token revocation not announced; other instances will find it by polling')));
    await bus.subscribe('tokens.revoked', ({ userId, version }) => revoked.raise(userId, version));
    this.#timer = setInterval(() => void this.#poll(), REVOCATION_POLL_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #poll(): Promise<void> {
    const startedAt = this.#deps.clock.now();
    try {
      for (const { id, token_version } of await repository.tokenVersionsChangedSince(this.#deps.db, this.#since)) this.#deps.revoked.raise(id, token_version);
      this.#since = startedAt - POLL_OVERLAP_MS;
      this.#deps.revoked.prune();
    } catch (error) {
      this.#deps.log.warn({ err: error }, 'token revocations not refreshed');
    }
  }
}
