import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { UserHub } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Count } from '../../platform/metrics.ts';
import type { PushDeliveryOptions, PushTransport } from '../../platform/push/push-transport.ts';
import { pushServiceOf } from './push-endpoints.ts';
import type { PushSubscriptions } from './push-subscriptions.service.ts';
import type { PushSubscriptionRow } from './push.repository.ts';
import type { PushPayload } from './push.schemas.ts';

/** A message for one user's closed apps. */
export interface PushMessage {
  payload: PushPayload;
  options: PushDeliveryOptions;
}

export interface PushDeliveryLimits {
  /** Requests to push services in flight at once. */
  concurrency: number;
  /** Messages waiting beyond this are dropped (and logged): a push service that stalls cannot eat the memory. */
  maxQueued: number;
  /** Waits before the second, third… attempt after a 429, a 5xx or a network failure. */
  retryDelaysMs: readonly number[];
  /** At shutdown, how long what is queued, in flight or due again may take to go, so a deploy loses none that can go in time. */
  closeGraceMs: number;
}

export const DEFAULT_PUSH_LIMITS: PushDeliveryLimits = { concurrency: 8, maxQueued: 10_000, retryDelaysMs: [2_000, 10_000], closeGraceMs: 5_000 };

interface Job {
  userId: number;
  message: PushMessage;
  /** Set once the user's subscriptions are read: one job per browser from then on. */
  target?: PushSubscriptionRow;
  attempt: number;
  /** When the message is no use any more (its TTL from when it was queued). */
  staleAt: number;
}

export interface PushDeliveryDependencies {
  subscriptions: Pick<PushSubscriptions, 'ofUser' | 'prune'>;
  hub: Pick<UserHub, 'connected'>;
  transport: PushTransport;
  clock: Clock;
  log: FastifyBaseLogger;
  /** push_messages_total by `result`: sent, skipped (an app of the user's is connected), none (no subscription), pruned, retried, failed, dropped. */
  outcomes: Count;
  limits?: Partial<PushDeliveryLimits>;
}

/**
 * Sends push messages off the request path: queued, a bounded number in flight, each to every browser
 * of a user who has no realtime connection open (an open app hears it live instead). A push service
 * answering 404 or 410 has dropped the subscription: it is pruned. A 429, a 5xx or no answer is tried
 * again a bounded number of times while the message is still of use; anything else is logged and
 * dropped. Logs name the push service, never the endpoint's path (it is what lets anyone post).
 */
export class PushDeliveries {
  readonly #deps: PushDeliveryDependencies;
  readonly #limits: PushDeliveryLimits;
  readonly #queue: Job[] = [];
  readonly #retries = new Set<NodeJS.Timeout>();
  #active = 0;
  #closed = false;
  #idle: Array<() => void> = [];

  constructor(deps: PushDeliveryDependencies) {
    this.#deps = deps;
    this.#limits = { ...DEFAULT_PUSH_LIMITS, ...deps.limits };
  }

  /** Queues the message for the user's closed apps; returns at once. */
  enqueue(userId: number, message: PushMessage): void {
    this.#add({ userId, message, attempt: 0, staleAt: this.#deps.clock.now() + message.options.ttlSeconds * 1000 });
  }

  /** Settles once nothing is queued, in flight or waiting to be tried again. */
  idle(): Promise<void> {
    if (this.#active === 0 && this.#queue.length === 0 && this.#retries.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Lets what is queued, in flight or due again go (up to `closeGraceMs`), then drops the rest and takes no more. */
  async close(): Promise<void> {
    await Promise.race([this.idle(), sleep(this.#limits.closeGraceMs, undefined, { ref: false })]);
    this.#closed = true;
    for (const timer of this.#retries) clearTimeout(timer);
    this.#retries.clear();
    this.#queue.length = 0;
    this.#settle();
  }

  #add(job: Job): void {
    if (this.#closed) return;
    if (this.#queue.length >= this.#limits.maxQueued) {
      this.#deps.outcomes.inc({ result: 'dropped' });
      this.#deps.log.warn({ userId: job.userId, kind: job.message.payload.kind }, 'push message dropped: too many waiting');
      return;
    }
    this.#queue.push(job);
    this.#pump();
  }

  #pump(): void {
    while (this.#active < this.#limits.concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      this.#active++;
      void this.#run(job).finally(() => {
        this.#active--;
        this.#pump();
        this.#settle();
      });
    }
  }

  async #run(job: Job): Promise<void> {
    try {
      if (job.target) return await this.#send(job, job.target);
      if (await this.#appOpen(job.userId)) {
        this.#deps.outcomes.inc({ result: 'skipped' });
        return;
      }
      const targets = await this.#deps.subscriptions.ofUser(job.userId);
      // The first browser now; the others queue behind whatever waits, each in its own turn.
      for (const target of targets.slice(1)) this.#add({ ...job, target });
      if (targets.length > 0) await this.#send(job, targets[0]);
      else this.#deps.outcomes.inc({ result: 'none' });
    } catch (error) {
      this.#deps.outcomes.inc({ result: 'failed' });
      this.#deps.log.warn({ err: error, userId: job.userId }, 'push message not sent');
    }
  }

  /** An app with its realtime connection open hears the change live; when presence cannot be read, send anyway (a duplicate beats a missed offer). */
  async #appOpen(userId: number): Promise<boolean> {
    try {
      return await this.#deps.hub.connected(userId);
    } catch (error) {
      this.#deps.log.warn({ err: error, userId }, 'realtime presence not read; pushing anyway');
      return false;
    }
  }

  async #send(job: Job, target: PushSubscriptionRow): Promise<void> {
    const { payload, options } = job.message;
    const ttlSeconds = Math.ceil((job.staleAt - this.#deps.clock.now()) / 1000);
    if (ttlSeconds <= 0) return;
    const where = { subscriptionId: target.id, pushService: pushServiceOf(target.endpoint), kind: payload.kind };
    let status: number | undefined;
    let failure: unknown;
    try {
      status = await this.#deps.transport.send({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(payload), { ...options, ttlSeconds });
    } catch (error) {
      failure = error;
    }
    if (status !== undefined && status >= 200 && status < 300) {
      this.#deps.outcomes.inc({ result: 'sent' });
      return;
    }
    if (status === 404 || status === 410) {
      this.#deps.outcomes.inc({ result: 'pruned' });
      this.#deps.log.info({ ...where, status }, 'push subscription gone: pruned');
      return this.#deps.subscriptions.prune(target);
    }
    const retryable = status === undefined || status === 429 || status >= 500;
    const delay = this.#limits.retryDelaysMs[job.attempt];
    if (retryable && delay !== undefined && this.#deps.clock.now() + delay < job.staleAt) {
      this.#deps.outcomes.inc({ result: 'retried' });
      this.#deps.log.warn({ ...where, status, err: failure, attempt: job.attempt + 1 }, 'push message not accepted; trying again');
      const timer = setTimeout(() => {
        this.#retries.delete(timer);
        this.#add({ ...job, target, attempt: job.attempt + 1 });
        this.#settle();
      }, delay);
      timer.unref();
      this.#retries.add(timer);
      return;
    }
    this.#deps.outcomes.inc({ result: 'failed' });
    this.#deps.log.warn({ ...where, status, err: failure }, 'push message not accepted; given up');
  }

  #settle(): void {
    if (this.#active > 0 || this.#queue.length > 0 || this.#retries.size > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
