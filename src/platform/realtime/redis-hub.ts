import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { EventMap } from '../event-bus.ts';
import { viaRedis } from '../redis.ts';
import { REPLAY_MS, replayAfter, type Attachment, type Listener, type RealtimeHub, type UserMessage } from './hub.ts';

// realtime:seq:{user}     the user's latest sequence number
// realtime:kept:{user}    a stream of the user's messages of the last REPLAY_MS (Redis time)
// realtime                the channel every instance hears, to reach connections wherever they are
const CHANNEL = 'realtime';
const SEQ_TTL_SECONDS = 86_400;

// One round trip per message: number it, keep it, fan it out. The message JSON is assembled here
// so the sequence number is in it; type and time are plain tokens, data is JSON already.
const SEND = `
local seq = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ${SEQ_TTL_SECONDS})
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local message = '{"type":"' .. ARGV[2] .. '","seq":' .. seq .. ',"at":"' .. ARGV[3] .. '","data":' .. ARGV[4] .. '}'
redis.call('XADD', KEYS[2], 'MINID', '~', tostring(ms - ${REPLAY_MS}), '*', 'm', message)
redis.call('PEXPIRE', KEYS[2], ${2 * REPLAY_MS})
redis.call('PUBLISH', KEYS[3], '{"userId":' .. ARGV[1] .. ',"message":' .. message .. '}')
return seq`;

type Send = (seqKey: string, keptKey: string, channel: string, userId: number, type: string, at: string, data: string) => Promise<number>;

/** The hub across instances: sequence numbers and replay in Redis, fan-out over one pub/sub channel. */
export class RedisHub<M extends EventMap> implements RealtimeHub<M> {
  readonly #redis: Redis;
  readonly #send: Send;
  readonly #listeners = new Map<number, Set<Listener<M>>>();
  #connections = 0;

  /** `subscriber` is the connection reserved for subscriptions (shared with the event bus). */
  constructor(redis: Redis, subscriber: Redis, prefix: string, log: FastifyBaseLogger) {
    this.#redis = redis;
    redis.defineCommand('realtimeSend', { numberOfKeys: 3, lua: SEND });
    this.#send = (redis as unknown as Record<string, Send>).realtimeSend.bind(redis);
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== prefix + CHANNEL) return;
      try {
        const { userId, message } = JSON.parse(text) as { userId: number; message: UserMessage<M> };
        for (const listener of this.#listeners.get(userId) ?? []) listener(message);
      } catch (error) {
        log.warn({ err: error }, 'unreadable realtime message ignored');
      }
    });
    void subscriber.subscribe(prefix + CHANNEL).catch((error: unknown) => log.error({ err: error }, 'realtime channel not subscribed'));
  }

  get connections(): number {
    return this.#connections;
  }

  async send<K extends keyof M & string>(userId: number, type: K, data: M[K]): Promise<void> {
    await viaRedis(this.#send(`realtime:seq:${userId}`, `realtime:kept:${userId}`, CHANNEL, userId, type, new Date().toISOString(), JSON.stringify(data)));
  }

  async attach(userId: number, listener: Listener<M>, resumeAfter?: number): Promise<Attachment<M>> {
    // Listen first and hold what arrives while the kept messages are read, so nothing falls between.
    const held: Array<UserMessage<M>> = [];
    let holding = true;
    const forward: Listener<M> = (message) => (holding ? held.push(message) : listener(message));
    let listeners = this.#listeners.get(userId);
    if (!listeners) this.#listeners.set(userId, (listeners = new Set()));
    listeners.add(forward);
    this.#connections++;
    const detach = () => {
      if (!listeners.delete(forward)) return;
      this.#connections--;
      if (listeners.size === 0) this.#listeners.delete(userId);
    };
    try {
      const [seqText, entries] = await viaRedis(
        Promise.all([
          this.#redis.get(`realtime:seq:${userId}`),
          resumeAfter === undefined ? Promise.resolve([]) : this.#redis.xrange(`realtime:kept:${userId}`, '-', '+'),
        ]),
      );
      const seq = Number(seqText ?? 0);
      const kept = entries.map(([, fields]) => JSON.parse(fields[1]) as UserMessage<M>);
      const replay = resumeAfter === undefined ? [] : replayAfter(kept, seq, resumeAfter);
      const last = replay === 'resync' || replay.length === 0 ? Math.max(seq, resumeAfter ?? 0) : replay[replay.length - 1].seq;
      const later = held.filter((message) => message.seq > last);
      holding = false;
      return { seq: Math.max(seq, ...later.map((m) => m.seq)), replay: replay === 'resync' ? replay : [...replay, ...later], detach };
    } catch (error) {
      detach();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
