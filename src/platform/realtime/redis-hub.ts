import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import type { EventMap } from '../event-bus.ts';
import { unavailable } from '../errors.ts';
import { viaRedis } from '../redis.ts';
import { OutageWatch } from './outage-watch.ts';
import { RedisPresence } from './redis-presence.ts';
import { REPLAY_MS, replayAfter, type Attachment, type DeliveryStats, type Interruption, type Listener, type RealtimeHub, type UserMessage } from './hub.ts';
import { ATTACHED, CHANNEL, realtimeScripts, type Outgoing, type RealtimeScripts } from './redis-hub-scripts.ts';

/**
 * How long after a user's last attach messages to them are still kept: a connection ends when its
 * access token expires (at most 24 hours, the configuration's limit), and a client may resume for
 * REPLAY_MS after that.
 */
export const ATTACHED_MS = 86_400_000 + 2 * REPLAY_MS;
/** While the attached users cannot be read (Redis away at start), how soon to try again. */
const RELOAD_MS = 5_000;
/** How often users whose last attach is older than ATTACHED_MS are forgotten. */
const SWEEP_MS = 10 * 60_000;
/** Messages numbered and published by one script at most (its keys and one channel message stay small). */
const MAX_BATCH = 256;

interface Queued extends Outgoing {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** One message on the channel: to a user, or a number skipped for them. */
interface Heard<M extends EventMap> {
  userId: number;
  message?: UserMessage<M>;
  resync?: number;
}

/** A connection's ends of an attachment: its messages, and what it is told when they may not come. */
interface Receiver<M extends EventMap> {
  deliver: Listener<M>;
  interrupted(interruption: Interruption): void;
}

/**
 * The hub across instances: sequence numbers and replay in Redis (redis-hub-scripts.ts), fan-out over
 * one pub/sub channel.
 *
 * It degrades loudly. When Redis stops answering (a send fails, the subscription drops, or the
 * probe times out) every connection this instance holds is interrupted (closed with 1013 by the
 * WebSocket), since it may miss messages; a message that could not be sent marks its user, and once
 * Redis answers again the user's next number is skipped, so any resume from before gets `resync`
 * and connections attached meanwhile, on any instance, are told at once.
 */
export class RedisHub<M extends EventMap> implements RealtimeHub<M> {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #scripts: RealtimeScripts;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #listeners = new Map<number, Set<Receiver<M>>>();
  /** User → when a connection of theirs last attached, on any instance (as announced). */
  readonly #attached = new Map<number, number>();
  /** Whether #attached is complete: false until the set is read, and again while the subscription is down. */
  #knowsAttached = false;
  #reload: NodeJS.Timeout | undefined;
  readonly #sweeper: NodeJS.Timeout;
  readonly #outages: OutageWatch;
  readonly #presence: RedisPresence;
  #closed = false;
  #connections = 0;
  /** Messages sent in this turn of the event loop: numbered and published together at its end. */
  #queue: Queued[] = [];
  readonly delivery: DeliveryStats = { delivered: 0, lagSeconds: 0, unsent: 0 };

  /** `subscriber` is the connection reserved for subscriptions (shared with the event bus). */
  constructor(redis: Redis, subscriber: Redis, prefix: string, clock: Clock, log: FastifyBaseLogger) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#prefix = prefix;
    this.#clock = clock;
    this.#log = log;
    this.#scripts = realtimeScripts(redis);
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === prefix + ATTACHED) return this.#heardAttach(text);
      if (channel === prefix + CHANNEL) this.#heard(text);
    });
    void subscriber.subscribe(prefix + CHANNEL).catch((error: unknown) => log.error({ err: error }, 'realtime channel not subscribed'));
    // Announcements missed while the subscription was down are read again from the set; messages
    // published meanwhile never arrive here, so the connections this instance holds are interrupted.
    subscriber.on('close', () => {
      this.#knowsAttached = false;
      if (!this.#closed) this.#outages.unreachable(new Error('the realtime subscription dropped'));
    });
    subscriber.on('ready', () => void this.#loadAttached());
    void this.#loadAttached();
    this.#sweeper = setInterval(() => this.#forgetOld(), SWEEP_MS).unref();
    this.#presence = new RedisPresence(redis, clock, log, () => this.#listeners.keys());
    this.#outages = new OutageWatch({
      ping: () => redis.ping(),
      subscribed: () => subscriber.status === 'ready',
      skip: (userId) => this.#scripts.skip(userId, clock.now()),
      holdsConnections: () => this.#connections > 0,
      interruptAll: () => {
        for (const receivers of this.#listeners.values()) for (const receiver of receivers) receiver.interrupted({ kind: 'unavailable' });
      },
      log,
    });
  }

  get connections(): number {
    return this.#connections;
  }

  /**
   * Whether a connection of the user attached, on any instance, within ATTACHED_MS: only then can a
   * message reach a client live or on resume. Until this instance has read who attached, everyone
   * counts. Every attach is announced before the attaching client gets its `seq`, so an instance
   * hears of it before it hears of any change committed after the client got `ready` (Redis's reply
   * and the database's reach this instance in that order), and sends that change.
   */
  reaches(userId: number): boolean {
    if (!this.#knowsAttached) return true;
    const at = this.#attached.get(userId);
    return at !== undefined && at > this.#clock.now() - ATTACHED_MS;
  }

  async connected(userId: number): Promise<boolean> {
    return this.#listeners.has(userId) || this.#presence.connected(userId);
  }

  /**
   * Queues the message; the messages of one turn of the event loop go to Redis in one script and
   * reach other instances as one channel message. Settles once it is numbered and published.
   */
  send<K extends keyof M & string>(userId: number, type: K, data: M[K]): Promise<void> {
    const at = new Date(this.#clock.now()).toISOString();
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ userId, type, at, data: JSON.stringify(data), resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const queued = this.#queue;
    this.#queue = [];
    for (let i = 0; i < queued.length; i += MAX_BATCH) void this.#sendBatch(queued.slice(i, i + MAX_BATCH));
  }

  async #sendBatch(batch: Queued[]): Promise<void> {
    try {
      await viaRedis(this.#scripts.send(batch, this.#clock.now()));
      for (const message of batch) message.resolve();
    } catch (error) {
      for (const message of batch) {
        this.delivery.unsent++;
        this.#outages.lost(message.userId, error);
        message.reject(error);
      }
    }
  }

  async attach(userId: number, listener: Listener<M>, resumeAfter?: number, interrupted: (interruption: Interruption) => void = () => {}): Promise<Attachment<M>> {
    // Listen first and hold what arrives while the kept messages are read, so nothing falls between.
    const held: Array<UserMessage<M>> = [];
    let holding = true;
    // Interruptions while attaching decide the answer instead of reaching a connection not yet set up.
    let skippedWhileHolding = 0;
    let unavailableWhileHolding = false;
    const receiver: Receiver<M> = {
      deliver: (message) => (holding ? held.push(message) : listener(message)),
      interrupted: (interruption) => {
        if (!holding) interrupted(interruption);
        else if (interruption.kind === 'resync') skippedWhileHolding = Math.max(skippedWhileHolding, interruption.seq);
        else unavailableWhileHolding = true;
      },
    };
    let listeners = this.#listeners.get(userId);
    const first = !listeners;
    if (!listeners) this.#listeners.set(userId, (listeners = new Set()));
    listeners.add(receiver);
    this.#connections++;
    const detach = () => {
      if (!listeners.delete(receiver)) return;
      this.#connections--;
      if (listeners.size > 0 || this.#listeners.get(userId) !== listeners) return;
      this.#listeners.delete(userId);
      this.#presence.closed(userId);
    };
    try {
      const now = this.#clock.now();
      this.#attachedAt(userId, now);
      // The presence claim and the read go out together: one wait for Redis, both done before `ready`.
      const [{ seq, kept: texts }] = await Promise.all([viaRedis(this.#scripts.read(userId, now, resumeAfter)), first && viaRedis(this.#presence.opened(userId))]);
      // Redis trims by its own time and only when it adds; what is kept is decided by the clock, as in memory.
      const kept = texts.map((text) => JSON.parse(text) as UserMessage<M>).filter((message) => Date.parse(message.at) >= now - REPLAY_MS);
      const replay = resumeAfter === undefined ? [] : replayAfter(kept, seq, resumeAfter);
      if (unavailableWhileHolding) throw unavailable('A shared dependency (Redis) became unreachable; try again shortly', 'REDIS_UNAVAILABLE');
      // Held messages up to `seq` were published before the read and are in it (or need not be).
      const later = held.filter((message) => message.seq > seq);
      holding = false;
      return {
        seq,
        // A number skipped after the read (an outage's end, in the moment of this attach): the client re-reads too.
        resync: replay === 'resync' || skippedWhileHolding > seq,
        replay: replay === 'resync' ? later : [...replay, ...later],
        detach,
      };
    } catch (error) {
      detach();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reload);
    clearInterval(this.#sweeper);
    this.#outages.close();
    // Not waited for: with Redis away it would hold the shutdown, and the claims lapse by themselves.
    void this.#presence.close([...this.#listeners.keys()]);
    this.#listeners.clear();
  }

  #heard(text: string): void {
    let heard: Heard<M> | Array<Heard<M>>;
    try {
      heard = JSON.parse(text) as typeof heard;
    } catch (error) {
      return this.#log.warn({ err: error }, 'unreadable realtime message ignored');
    }
    // Messages come in arrays (one per script that sent them); a skipped number comes alone.
    if (Array.isArray(heard)) for (const one of heard) this.#heardOne(one);
    else this.#heardOne(heard);
  }

  #heardOne(heard: Heard<M>): void {
    const receivers = this.#listeners.get(heard.userId);
    if (!receivers) return;
    if (heard.resync !== undefined) {
      for (const receiver of receivers) receiver.interrupted({ kind: 'resync', seq: heard.resync });
      return;
    }
    const message = heard.message!;
    this.delivery.delivered++;
    this.delivery.lagSeconds += Math.max(0, this.#clock.now() - Date.parse(message.at)) / 1000;
    for (const receiver of receivers) receiver.deliver(message);
  }

  #heardAttach(text: string): void {
    const [userId, at] = text.split(',').map(Number);
    if (Number.isSafeInteger(userId) && Number.isFinite(at)) this.#attachedAt(userId, at);
  }

  #attachedAt(userId: number, at: number): void {
    if ((this.#attached.get(userId) ?? -Infinity) < at) this.#attached.set(userId, at);
  }

  /** Listens to announcements first, then reads the set: an attach lands in one or the other. */
  async #loadAttached(): Promise<void> {
    clearTimeout(this.#reload);
    try {
      await this.#subscriber.subscribe(this.#prefix + ATTACHED);
      const members = await this.#redis.zrangebyscore(ATTACHED, this.#clock.now() - ATTACHED_MS, '+inf', 'WITHSCORES');
      for (let i = 0; i + 1 < members.length; i += 2) this.#attachedAt(Number(members[i]), Number(members[i + 1]));
      if (this.#subscriber.status === 'ready') this.#knowsAttached = true;
    } catch (error) {
      if (this.#closed) return;
      this.#log.warn({ err: error }, 'users with a realtime connection not read; every message is kept until they are');
      this.#reload = setTimeout(() => void this.#loadAttached(), RELOAD_MS).unref();
    }
  }

  #forgetOld(): void {
    const since = this.#clock.now() - ATTACHED_MS;
    for (const [userId, at] of this.#attached) if (at <= since) this.#attached.delete(userId);
    this.#redis.zremrangebyscore(ATTACHED, '-inf', since).catch(() => {
      // Tried again at the next sweep; old members are ignored meanwhile.
    });
  }
}
