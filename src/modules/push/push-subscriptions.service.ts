import type { Transactions, Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { badRequest } from '../../platform/errors.ts';
import type { PushConfig } from '../../platform/push/push-config.ts';
import type { Db } from '../../db/database.ts';
import { endpointProblem, keysProblem } from './push-endpoints.ts';
import * as repository from './push.repository.ts';
import type { PushKey, PushSubscribed, PushSubscriptionBody } from './push.schemas.ts';

/** Browsers kept per account; a new one beyond them replaces the oldest (browsers that vanished never say so). */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

export interface PushSubscriptionsDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  push: PushConfig;
}

/** The browsers a user's messages go to when their app is closed: POST and DELETE /push/subscriptions. */
export class PushSubscriptions {
  readonly #deps: PushSubscriptionsDependencies;

  constructor(deps: PushSubscriptionsDependencies) {
    this.#deps = deps;
  }

  /** GET /push/key: what browsers subscribe with (the applicationServerKey). */
  key(): PushKey {
    return { publicKey: this.#deps.push.vapid.publicKey };
  }

  /** Idempotent per endpoint: the same browser again refreshes its keys; as another account, it moves to it. */
  async subscribe(user: AuthUser, body: PushSubscriptionBody): Promise<PushSubscribed> {
    const problem = endpointProblem(body.endpoint, this.#deps.push) ?? keysProblem(body.keys);
    if (problem) throw badRequest(problem, 'INVALID_PUSH_SUBSCRIPTION');
    const now = this.#deps.clock.now();
    return this.#deps.transactions.run(async (tx) => {
      const row = await repository.upsert(tx.db, { user_id: user.id, endpoint: body.endpoint, p256dh: body.keys.p256dh.replace(/=+$/, ''), auth: body.keys.auth.replace(/=+$/, ''), created_at: now });
      const subscriptions = await repository.keepNewest(tx.db, user.id, MAX_SUBSCRIPTIONS_PER_USER);
      return { message: 'This browser will be told of offers and ride changes while the app is closed.', createdAt: toIso(row.created_at), subscriptions };
    });
  }

  /** DELETE /push/subscriptions (the apps call it on sign-out); an endpoint not kept is fine. */
  async unsubscribe(user: AuthUser, endpoint: string): Promise<{ message: string }> {
    const removed = await this.#deps.transactions.run((tx) => repository.removeEndpoint(tx.db, user.id, endpoint));
    return { message: removed ? 'This browser will no longer be sent messages.' : 'This browser was not subscribed.' };
  }

  ofUser(userId: number): Promise<repository.PushSubscriptionRow[]> {
    return repository.ofUser(this.#deps.db, userId);
  }

  /** The push service said the subscription is gone (404 or 410). */
  prune(row: Pick<repository.PushSubscriptionRow, 'id' | 'p256dh'>): Promise<void> {
    return this.#deps.transactions.run((tx) => repository.prune(tx.db, row));
  }

  /** Inside an erasure's unit. */
  erase(tx: Tx, userId: number): Promise<void> {
    return repository.removeAllOf(tx.db, userId);
  }

  /** A blocked or erased account's browsers hear nothing more. */
  removeAll(userId: number): Promise<void> {
    return this.#deps.transactions.run((tx) => repository.removeAllOf(tx.db, userId));
  }
}
