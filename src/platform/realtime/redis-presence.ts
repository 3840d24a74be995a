import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';

// realtime:open:{user}  sorted set: the instances holding a live connection of the user, each scored
//                       with when its claim lapses (ms) unless the instance renews it. An instance
//                       that dies without removing its claims loses them within OPEN_MS.

/** How long an instance's claim that a user is connected to it lasts without being renewed. */
export const OPEN_MS = 60_000;
/** Claims are renewed this often, well within OPEN_MS. */
const RENEW_MS = OPEN_MS / 3;

const key = (userId: number) => `realtime:open:${userId}`;

/**
 * Who has a realtime connection open on any instance right now (not merely attached lately, as the
 * hub's `reaches` tells): the push module sends a message to a closed app only.
 */
export class RedisPresence {
  readonly #redis: Redis;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #instance = randomUUID();
  readonly #renewer: NodeJS.Timeout;

  /** `users` lists the users connected to this instance now, for the renewals. */
  constructor(redis: Redis, clock: Clock, log: FastifyBaseLogger, users: () => Iterable<number>) {
    this.#redis = redis;
    this.#clock = clock;
    this.#log = log;
    this.#renewer = setInterval(() => void this.#renew(users()), RENEW_MS).unref();
  }

  /** The user's first connection on this instance opened: claimed before the client hears `ready`. */
  async opened(userId: number): Promise<void> {
    await this.#claim([userId]);
  }

  /** The user's last connection on this instance closed. */
  closed(userId: number): void {
    this.#redis.zrem(key(userId), this.#instance).catch((error: unknown) => this.#log.warn({ err: error, userId }, 'realtime presence not cleared; it lapses by itself'));
  }

  async connected(userId: number): Promise<boolean> {
    return (await this.#redis.zcount(key(userId), this.#clock.now(), '+inf')) > 0;
  }

  /** This instance stops: its claims go at once instead of lapsing. */
  async close(users: Iterable<number>): Promise<void> {
    clearInterval(this.#renewer);
    const pipeline = this.#redis.pipeline();
    for (const userId of users) pipeline.zrem(key(userId), this.#instance);
    await pipeline.exec().catch(() => {});
  }

  async #claim(userIds: Iterable<number>): Promise<void> {
    const until = this.#clock.now() + OPEN_MS;
    const pipeline = this.#redis.pipeline();
    for (const userId of userIds) {
      // Lapsed claims (instances that died) leave with each renewal; the key itself outlives the last claim a little.
      pipeline.zremrangebyscore(key(userId), '-inf', this.#clock.now());
      pipeline.zadd(key(userId), until, this.#instance);
      pipeline.pexpire(key(userId), 2 * OPEN_MS);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  async #renew(users: Iterable<number>): Promise<void> {
    try {
      await this.#claim(users);
    } catch (error) {
      this.#log.warn({ err: error }, 'realtime presence not renewed; tried again shortly');
    }
  }
}
