import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import type { EventMap } from '../event-bus.ts';
import { viaRedis } from '../redis.ts';
import { REPLAY_MS, replayAfter, type Attachment, type Listener, type RealtimeHub, type UserMessage } from './hub.ts';

// realtime:seq:{user}     the user's latest sequence number
// realtime:kept:{user}    a stream of the user's recent messages (trimmed by Redis time, read by the clock's)
// realtime                the channel every instance hears, to reach connections wherever they are
const CHANNEL = 'realtime';
const SEQ_TTL_SECONDS = 86_400;

// A user's first number is the current time in ms (see RealtimeHub), set by whichever of sending
// and attaching comes first.
const START_SEQ = `redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ${SEQ_TTL_SECONDS})`;

// One round trip per message: number it, keep it, fan it out. The message JSON is assembled here
// so the sequence number is in it; type and time are plain tokens, data is JSON already.
const SEND = `
${START_SEQ}
local seq = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ${SEQ_TTL_SECONDS})
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local message = '{"type":"' .. ARGV[3] .. '","seq":' .. string.format('%d', seq) .. ',"at":"' .. ARGV[4] .. '","data":' .. ARGV[5] .. '}'
redis.call('XADD', KEYS[2], 'MINID', '~', string.format('%d', ms - ${REPLAY_MS}), '*', 'm', message)
redis.call('PEXPIRE', KEYS[2], ${2 * REPLAY_MS})
redis.call('PUBLISH', KEYS[3], '{"userId":' .. ARGV[2] .. ',"message":' .. message .. '}')
return seq`;

// The latest number and the kept messages, read together so that none falls between the two.
const READ = `
${START_SEQ}
local seq = redis.call('GET', KEYS[1])
if ARGV[2] == '0' then return {seq, {}} end
return {seq, redis.call('XRANGE', KEYS[2], '-', '+')}`;

type Send = (seqKey: string, keptKey: string, channel: string, start: number, userId: number, type: string, at: string, data: string) => Promise<number>;
type Read = (seqKey: string, keptKey: string, start: number, withKept: 0 | 1) => Promise<[string, Array<[string, string[]]>]>;

/** The hub across instances: sequence numbers and replay in Redis, fan-out over one pub/sub channel. */
export class RedisHub<M extends EventMap> implements RealtimeHub<M> {
  readonly #send: Send;
  readonly #read: Read;
  readonly #clock: Clock;
  readonly #listeners = new Map<number, Set<Listener<M>>>();
  #connections = 0;

  /** `subscriber` is the connection reserved for subscriptions (shared with the event bus). */
  constructor(redis: Redis, subscriber: Redis, prefix: string, clock: Clock, log: FastifyBaseLogger) {
    this.#clock = clock;
    redis.defineCommand('realtimeSend', { numberOfKeys: 3, lua: SEND });
    redis.defineCommand('realtimeRead', { numberOfKeys: 2, lua: READ });
    const commands = redis as unknown as { realtimeSend: Send; realtimeRead: Read };
    this.#send = commands.realtimeSend.bind(redis);
    this.#read = commands.realtimeRead.bind(redis);
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

  /** Any instance may have, or later get, a connection of the user: every message is kept. */
  reaches(): boolean {
    return true;
  }

  async send<K extends keyof M & string>(userId: number, type: K, data: M[K]): Promise<void> {
    const now = this.#clock.now();
    await viaRedis(this.#send(seqKey(userId), keptKey(userId), CHANNEL, now, userId, type, new Date(now).toISOString(), JSON.stringify(data)));
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
      const now = this.#clock.now();
      const [seqText, entries] = await viaRedis(this.#read(seqKey(userId), keptKey(userId), now, resumeAfter === undefined ? 0 : 1));
      const seq = Number(seqText);
      // Redis trims by its own time and only roughly; what is kept is decided by the clock, as in memory.
      const kept = entries.map(([, fields]) => JSON.parse(fields[1]) as UserMessage<M>).filter((message) => Date.parse(message.at) >= now - REPLAY_MS);
      const replay = resumeAfter === undefined ? [] : replayAfter(kept, seq, resumeAfter);
      // Held messages up to `seq` were published before the read and are in it (or need not be).
      const later = held.filter((message) => message.seq > seq);
      holding = false;
      return {
        seq,
        resync: replay === 'resync',
        replay: replay === 'resync' ? later : [...replay, ...later],
        detach,
      };
    } catch (error) {
      detach();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

const seqKey = (userId: number) => `realtime:seq:${userId}`;
const keptKey = (userId: number) => `realtime:kept:${userId}`;
