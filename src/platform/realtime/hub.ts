import type { Clock } from '../clock.ts';
import type { EventMap } from '../event-bus.ts';

/** One message to one user: its type, the user's sequence number, when it was sent, and its data. */
export interface UserMessage<M extends EventMap, K extends keyof M & string = keyof M & string> {
  type: K;
  seq: number;
  at: string;
  data: M[K];
}

export type Listener<M extends EventMap> = (message: UserMessage<M>) => void;

/**
 * What a connection is told when the hub cannot keep its promise: `unavailable`, the hub cannot
 * deliver right now (the connection should end, so its client resumes once it can); `resync`, some
 * of the user's messages up to `seq` were never sent (the client re-reads over REST and carries on
 * after `seq`). Either way the client knows; no message is skipped silently.
 */
export type Interruption = { kind: 'unavailable' } | { kind: 'resync'; seq: number };

/** What this instance's connections received, and how long after sending: the realtime lag. */
export interface DeliveryStats {
  /** Messages handed to at least one connection on this instance. */
  delivered: number;
  /** Their delays from being sent to being handed over, summed. */
  lagSeconds: number;
  /** Messages this instance could not number or keep (their users were told to resync). */
  unsent: number;
}

export interface Attachment<M extends EventMap> {
  /** The user's latest sequence number when attached: what was missed reaches up to it, later messages follow it. */
  seq: number;
  /** Some messages after `resumeAfter` are no longer kept: the client re-reads its state over REST. */
  resync: boolean;
  /** In order: the messages after `resumeAfter` (none after a resync), then any sent while attaching. */
  replay: Array<UserMessage<M>>;
  detach(): void;
}

/** Messages are kept for replay this long, within the two bounds below. */
export const REPLAY_MS = 5 * 60_000;
/**
 * At most this many of a user's latest messages are kept, and at most this many bytes of them: a
 * driver reporting at the per-driver limit fills a rider's replay with 1,500 positions in 5 minutes,
 * so a flood costs a bounded amount per user, and a client asking for older ones gets a resync.
 */
export const REPLAY_MESSAGES = 1_000;
export const REPLAY_BYTES = 256 * 1024;

/**
 * What a user's apps hear live. Modules send typed messages to a user; the hub numbers them per
 * user, keeps the latest of them (see REPLAY_MS) so a reconnecting client loses nothing, and hands them to every
 * live connection of that user on any instance. Transports (WebSocket, SSE) attach connections.
 *
 * Sequence numbers only grow: a user the hub forgot (nothing kept, nobody listening) starts again
 * from the current time in milliseconds, above any number handed out before, so a client resuming
 * from an old number is told to resync instead of being sent new messages under old numbers.
 */
export interface RealtimeHub<M extends EventMap> {
  send<K extends keyof M & string>(userId: number, type: K, data: M[K]): Promise<void>;
  /**
   * Whether a message to the user now could reach a client, live or on resume. False only where
   * the hub can tell none can (in process: no connection of theirs has attached since it met them),
   * so senders skip building what nobody would read.
   */
  reaches(userId: number): boolean;
  /** Whether a connection of the user is open now, on any instance (the push module sends only to closed apps). */
  connected(userId: number): Promise<boolean>;
  /**
   * Starts delivering the user's new messages to `listener`; with `resumeAfter`, first what was
   * missed. `interrupted` hears when messages may not reach the listener (never in process).
   */
  attach(userId: number, listener: Listener<M>, resumeAfter?: number, interrupted?: (interruption: Interruption) => void): Promise<Attachment<M>>;
  /** Live connections attached on this instance. */
  readonly connections: number;
  readonly delivery: Readonly<DeliveryStats>;
  close(): Promise<void>;
}

interface UserState<M extends EventMap> {
  seq: number;
  /**
   * Whether a connection of the user has attached since the hub met the user. Until then no client
   * holds any of the user's sequence numbers, so none can resume from one: nothing needs keeping,
   * and a city of riders without the app open costs no memory.
   */
  keeping: boolean;
  /** In sequence, without gaps: the latest of the user's messages within the replay bounds. */
  kept: Array<Kept<M>>;
  /** The bytes of the kept messages' JSON. */
  keptBytes: number;
  listeners: Set<Listener<M>>;
}

type Kept<M extends EventMap> = UserMessage<M> & { sentAt: number; bytes: number };

/** How often the in-process hub looks for users it can forget. */
const SWEEP_MS = 60_000;

/** In-process hub: one instance sees every connection and every message. */
export class MemoryHub<M extends EventMap> implements RealtimeHub<M> {
  readonly #users = new Map<number, UserState<M>>();
  readonly #clock: Clock;
  #sweptAt: number;
  #connections = 0;
  readonly delivery: DeliveryStats = { delivered: 0, lagSeconds: 0, unsent: 0 };

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#sweptAt = clock.now();
  }

  get connections(): number {
    return this.#connections;
  }

  async send<K extends keyof M & string>(userId: number, type: K, data: M[K]): Promise<void> {
    const now = this.#clock.now();
    const user = this.#user(userId, now);
    const message = { type, seq: ++user.seq, at: new Date(now).toISOString(), data } as UserMessage<M>;
    if (user.keeping) {
      const bytes = Buffer.byteLength(JSON.stringify(message));
      user.kept.push({ ...message, sentAt: now, bytes });
      user.keptBytes += bytes;
      trim(user, now);
    }
    if (user.listeners.size > 0) this.delivery.delivered++;
    for (const listener of user.listeners) listener(message);
  }

  reaches(userId: number): boolean {
    return this.#users.get(userId)?.keeping === true;
  }

  async connected(userId: number): Promise<boolean> {
    return (this.#users.get(userId)?.listeners.size ?? 0) > 0;
  }

  async attach(userId: number, listener: Listener<M>, resumeAfter?: number): Promise<Attachment<M>> {
    const now = this.#clock.now();
    const user = this.#user(userId, now);
    trim(user, now);
    user.keeping = true;
    user.listeners.add(listener);
    this.#connections++;
    let attached = true;
    const replay = resumeAfter === undefined ? [] : replayAfter(user.kept, user.seq, resumeAfter);
    return {
      seq: user.seq,
      resync: replay === 'resync',
      replay: replay === 'resync' ? [] : replay,
      detach: () => {
        if (!attached) return;
        attached = false;
        user.listeners.delete(listener);
        this.#connections--;
      },
    };
  }

  async close(): Promise<void> {
    this.#users.clear();
  }

  #user(userId: number, now: number): UserState<M> {
    // Swept on use rather than on a timer: nothing to do while nothing happens, and tests move the clock.
    if (now - this.#sweptAt >= SWEEP_MS) this.#sweep(now);
    let user = this.#users.get(userId);
    if (!user) this.#users.set(userId, (user = { seq: now, keeping: false, kept: [], keptBytes: 0, listeners: new Set() }));
    return user;
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [userId, user] of this.#users) {
      trim(user, now);
      if (user.kept.length === 0 && user.listeners.size === 0) this.#users.delete(userId);
    }
  }
}

/** Drops the oldest kept messages until what is left is within the window, the count and the bytes. */
function trim(user: { kept: Array<{ sentAt: number; bytes: number }>; keptBytes: number }, now: number): void {
  const { kept } = user;
  let drop = 0;
  while (drop < kept.length && (kept[drop].sentAt < now - REPLAY_MS || kept.length - drop > REPLAY_MESSAGES || user.keptBytes > REPLAY_BYTES)) {
    user.keptBytes -= kept[drop].bytes;
    drop++;
  }
  if (drop > 0) kept.splice(0, drop);
}

/**
 * The kept messages after `resumeAfter`, or 'resync' when the client asks from a point that is
 * unknown (past the latest sequence number) or when any number after it is not kept: too old, or
 * never stored (a message the hub could not keep during a Redis outage leaves a hole on purpose).
 * `kept` is in ascending order of `seq`, so the first message after `resumeAfter` is found by
 * bisection and a complete range is told by its ends and its length, without reading the rest.
 */
export function replayAfter<T extends { seq: number }>(kept: readonly T[], latest: number, resumeAfter: number): T[] | 'resync' {
  if (resumeAfter > latest) return 'resync';
  if (resumeAfter === latest) return [];
  let from = 0;
  for (let to = kept.length; from < to; ) {
    const middle = (from + to) >>> 1;
    if (kept[middle].seq <= resumeAfter) from = middle + 1;
    else to = middle;
  }
  // Distinct ascending numbers from resumeAfter + 1 to latest, as many as that range holds: no hole.
  const complete = kept.length - from === latest - resumeAfter && kept[from].seq === resumeAfter + 1 && kept[kept.length - 1].seq === latest;
  return complete ? kept.slice(from).map(strip) : 'resync';
}

/** A kept message without the bookkeeping of when it was kept and its size. */
function strip<T extends { seq: number }>(message: T): T {
  if (!('sentAt' in message)) return message;
  const copy = { ...message } as T & { sentAt?: number; bytes?: number };
  delete copy.sentAt;
  delete copy.bytes;
  return copy;
}
