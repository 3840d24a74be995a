import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { unavailable } from '../errors.ts';
import type { DriverLocationIndex, DriverPosition, NearbyDriver, PositionColumns } from './driver-index.ts';
import type { Point } from './geo.ts';
import { MemoryDriverIndex } from './memory-driver-index.ts';
import { CHANGES, CHANGES_SEQ, defineScript, RedisDriverIndex, reportsKey, type Script } from './redis-driver-index.ts';

/** A copy that has heard nothing from Redis for this long is not trusted: its reads answer 503. */
export const MAX_BEHIND_MS = 1_000;
/**
 * Every instance numbers a tick this often, so a quiet city still proves the copies current (and a
 * frozen Redis, which sends nothing, shows within MAX_BEHIND_MS).
 */
export const TICK_MS = 250;

// Numbers a change with no content: proof that the channel works and nothing was missed.
const TICK = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], seq .. '|' .. ARGV[2] .. '|||')
return seq`;

/** Reports read per HSCAN step of a snapshot: each step is short, so Redis keeps answering others. */
const SNAPSHOT_STEP = 5_000;

/** How far behind Redis the copies ran: per change applied, the time from its sending to its arrival. */
export interface CopyStats {
  applied: number;
  lagSeconds: number;
  /** The largest lag since the last call of `takeMaxLag`. */
  maxLagMs: number;
  resyncs: number;
}

/**
 * Each instance's copy of the driver location indexes in Redis, so that the reads every request makes
 * (nearby search, a ride view's driver, dispatch's supply) are answered from memory rather than by a
 * round trip. Redis stays the truth: every change there is numbered and published in the same script
 * (redis-driver-index.ts); a copy applies them in order, and when a number is missing (a dropped
 * subscription, a Redis restarted empty), or at start, it reads the last number, then every index
 * in short HSCAN steps (one script over a million drivers would hold Redis for seconds), then applies
 * every change after that number. Its reads answer 503 (REDIS_UNAVAILABLE),
 * as Redis's would, until the first snapshot after the subscription (re)started is loaded, and
 * whenever it has heard nothing, or been catching up a missed change, for more than MAX_BEHIND_MS.
 */
export class DriverIndexCopies {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #names: readonly string[];
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  readonly #tick: Script;
  readonly #timer: NodeJS.Timeout;
  #copies = new Map<string, MemoryDriverIndex>();
  /** The number of the last change applied; undefined while out of step. */
  #seq: number | undefined;
  /** Whether the copy holds a snapshot taken since the subscription last (re)started. */
  #loaded = false;
  /** Since when (wall clock) a missed change is being caught up: the copy serves for MAX_BEHIND_MS meanwhile. */
  #behindSince: number | undefined;
  #syncing = false;
  /** Changes heard while a snapshot is under way, applied after it. */
  #heldBack: string[] = [];
  #heardAt = 0;
  /** Reads waiting to hear from Redis before they trust the copy. */
  #waiting: Array<() => void> = [];
  #closed = false;
  readonly stats: CopyStats = { applied: 0, lagSeconds: 0, maxLagMs: 0, resyncs: 0 };

  /** `subscriber` must be a connection of its own (Redis reserves it for subscriptions). */
  constructor(redis: Redis, subscriber: Redis, names: readonly string[], clock: Clock, log: FastifyBaseLogger) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#channel = (redis.options.keyPrefix ?? '') + CHANGES;
    this.#names = names;
    this.#clock = clock;
    this.#log = log;
    this.#tick = defineScript(redis, 'driverCopiesTick', TICK, [CHANGES_SEQ]);
    for (const name of names) this.#copies.set(name, new MemoryDriverIndex(() => clock.now()));
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#hear(text);
    });
    // Whatever was published while the subscription was down is lost: out of step until a snapshot.
    subscriber.on('close', () => {
      this.#seq = undefined;
      this.#loaded = false;
    });
    this.#timer = setInterval(() => void this.#tick(this.#channel, Date.now()).catch(() => undefined), TICK_MS).unref();
  }

  /** Subscribes and loads the first snapshot; reads answer 503 until it is loaded. */
  async start(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel);
    await this.#resync();
  }

  /** One index: writes go to Redis (and this copy at once), reads to this copy. */
  index(name: string): DriverLocationIndex {
    const truth = new RedisDriverIndex(this.#redis, this.#clock, name);
    return new CopiedDriverIndex(truth, () => this.read(name), () => this.#copies.get(name)!);
  }

  /** Throws (503) unless the copy is in step with Redis and heard from it within MAX_BEHIND_MS. */
  inStep(): void {
    this.#current(this.#names[0]);
  }

  /** The largest lag since the last call, in milliseconds. */
  takeMaxLag(): number {
    const max = this.stats.maxLagMs;
    this.stats.maxLagMs = 0;
    return max;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await Promise.all([...this.#copies.values()].map((copy) => copy.close()));
  }

  /** The copy of the index, if it can be trusted now. */
  #current(name: string): MemoryDriverIndex {
    if (!this.#trusted()) throw unavailable('A shared dependency (Redis) is unavailable; try again shortly', 'REDIS_UNAVAILABLE');
    return this.#copies.get(name)!;
  }

  #trusted(): boolean {
    const now = Date.now();
    return this.#loaded && now - this.#heardAt <= MAX_BEHIND_MS && (this.#behindSince === undefined || now - this.#behindSince <= MAX_BEHIND_MS);
  }

  /**
   * The copy for a read. One that looks stale by the clock gets one tick's time to hear from Redis
   * first: when this process itself was busy for a second (a long task, a collection pause), the
   * proof it is current sits unread on the subscription, and the timer that sends the next one has
   * not run yet, so the copy is not the one to blame.
   */
  read(name: string): MemoryDriverIndex | Promise<MemoryDriverIndex> {
    if (this.#trusted()) return this.#copies.get(name)!;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, TICK_MS * 2);
      this.#waiting.push(() => (clearTimeout(timer), resolve()));
    }).then(() => this.#current(name));
  }

  #hear(text: string): void {
    this.#heardAt = Date.now();
    for (const wake of this.#waiting.splice(0)) wake();
    if (this.#syncing) return void this.#heldBack.push(text);
    const seq = Number(text.slice(0, text.indexOf('|')));
    if (this.#seq !== undefined && seq <= this.#seq) return; // already in the snapshot
    if (this.#seq === undefined || seq !== this.#seq + 1) {
      this.#behindSince ??= Date.now();
      this.#heldBack.push(text);
      return void this.#resync();
    }
    this.#apply(text);
  }

  #apply(text: string): void {
    const [seq, sentAt, name, driverId, report] = text.split('|');
    this.#seq = Number(seq);
    const lagMs = Math.max(0, Date.now() - Number(sentAt));
    this.stats.applied++;
    this.stats.lagSeconds += lagMs / 1000;
    if (lagMs > this.stats.maxLagMs) this.stats.maxLagMs = lagMs;
    const copy = this.#copies.get(name);
    if (!copy) return; // a tick, or an index this instance does not copy
    if (report) copy.upsertNow(parseReport(Number(driverId), report));
    else void copy.remove(Number(driverId));
  }

  async #resync(): Promise<void> {
    if (this.#syncing || this.#closed) return;
    this.#syncing = true;
    this.stats.resyncs++;
    try {
      // The number first, then the reports step by step: whatever changes during the scan has a
      // larger number, arrives on the subscription (held back meanwhile) and is applied after, in
      // order, so the copy ends where Redis is however the scan saw it.
      const seq = (await this.#redis.get(CHANGES_SEQ)) ?? '0';
      const loaded = new Map<string, MemoryDriverIndex>();
      for (const name of this.#names) {
        const copy = new MemoryDriverIndex(() => this.#clock.now());
        let cursor = '0';
        do {
          const [next, flat] = await this.#redis.hscan(reportsKey(name), cursor, 'COUNT', SNAPSHOT_STEP);
          for (let k = 0; k < flat.length; k += 2) copy.upsertNow(parseReport(Number(flat[k]), flat[k + 1]));
          cursor = next;
        } while (cursor !== '0');
        loaded.set(name, copy);
      }
      const old = this.#copies;
      this.#copies = loaded;
      await Promise.all([...old.values()].map((copy) => copy.close()));
      this.#seq = Number(seq);
      this.#loaded = true;
      this.#behindSince = undefined;
      this.#heardAt = Date.now();
    } catch (error) {
      this.#seq = undefined;
      this.#log.warn({ err: error }, 'driver positions not copied from Redis; trying again with the next change');
    } finally {
      this.#syncing = false;
    }
    const heldBack = this.#heldBack;
    this.#heldBack = [];
    // In order: those the snapshot holds are passed over; a missing number starts another snapshot.
    if (this.#seq !== undefined) for (const text of heldBack) this.#hear(text);
  }
}

function parseReport(driverId: number, report: string): DriverPosition {
  const [lat, lon, updatedAt] = report.split(',').map(Number);
  return { driverId, lat, lon, updatedAt };
}

/** An index whose writes go to Redis and whose reads come from this instance's copy of it. */
class CopiedDriverIndex implements DriverLocationIndex {
  readonly #truth: RedisDriverIndex;
  /** The copy to read (at once when it is current): rejects while it cannot be trusted. */
  readonly #copy: () => MemoryDriverIndex | Promise<MemoryDriverIndex>;
  /** The copy as it is, for this instance's own writes (a snapshot under way holds or follows them). */
  readonly #own: () => MemoryDriverIndex;

  constructor(truth: RedisDriverIndex, copy: () => MemoryDriverIndex | Promise<MemoryDriverIndex>, own: () => MemoryDriverIndex) {
    this.#truth = truth;
    this.#copy = copy;
    this.#own = own;
  }

  async upsert(position: DriverPosition): Promise<void> {
    await this.#truth.upsert(position);
    // This instance reads its own write at once, before the change comes back on the channel.
    this.#own().upsertNow(position);
  }

  async remove(driverId: number): Promise<void> {
    await this.#truth.remove(driverId);
    await this.#own().remove(driverId);
  }

  get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    return this.#read((copy) => copy.get(driverId, now));
  }

  nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]> {
    return this.#read((copy) => copy.nearby(center, radiusKm, limit, now));
  }

  fresh(now: number): Promise<DriverPosition[]> {
    return this.#read((copy) => copy.fresh(now));
  }

  freshColumns(now: number): Promise<PositionColumns> {
    return this.#read((copy) => copy.freshColumns(now));
  }

  /** No extra turn of the event loop when the copy is current: these are the hottest reads. */
  #read<T>(read: (copy: MemoryDriverIndex) => Promise<T>): Promise<T> {
    const copy = this.#copy();
    return copy instanceof MemoryDriverIndex ? read(copy) : copy.then(read);
  }

  close(): Promise<void> {
    return this.#truth.close();
  }
}
