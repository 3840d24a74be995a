import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import { CoalescingWriter } from '../../platform/coalescing-writer.ts';
import type { Counters } from '../../platform/counters.ts';
import * as repository from './demand-stats.repository.ts';

/** Width of a demand bucket: every real time zone offset is a multiple of it, so a bucket lies in one local hour. */
export const BUCKET_MS = 15 * 60_000;
export const BUCKET_FLUSH_INTERVAL_MS = 1000;
/** Riders this instance remembers having counted in the current bucket (beyond it, the shared counter decides alone). */
const COUNTED_RIDERS_MAX = 100_000;

export type Bucket = { start: number } & repository.BucketCounts;

const add = (a: repository.BucketCounts, b: repository.BucketCounts): repository.BucketCounts => ({
  rides: a.rides + b.rides,
  riders: a.riders + b.riders,
  accepted: a.accepted + b.accepted,
  acceptDelayMs: a.acceptDelayMs + b.acceptDelayMs,
});
const bucketOf = (at: number) => Math.floor(at / BUCKET_MS) * BUCKET_MS;

export interface DemandStatsDependencies {
  db: Db;
  transactions: Transactions;
  counters: Counters;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The demand statistics behind insights' forecasts and surge. Bookings and accepts are counted per
 * 15-minute bucket as they happen (fed by `ride.booked` and `ride.moved`, insights.module.ts), added
 * up here and written once a second (one row per bucket, never a row per booking), so the model reads
 * about a thousand rows however many rides there are. Each rider counts once per bucket however often
 * they book, so one account cannot move prices.
 */
export class DemandStats {
  readonly #deps: DemandStatsDependencies;
  readonly #pending: CoalescingWriter<number, repository.BucketCounts>;
  /** Riders this instance counted in bucket `start`: a rider's next booking there cannot be their first. */
  #counted = { start: 0, riders: new Set<number>() };

  constructor(deps: DemandStatsDependencies) {
    this.#deps = deps;
    this.#pending = new CoalescingWriter(
      (entries) => deps.transactions.run((tx) => repository.addToBuckets(tx.db, entries)),
      BUCKET_FLUSH_INTERVAL_MS,
      deps.log,
      { merge: add, retryable: isDatabaseUnavailable },
    );
  }

  /** Counts a booking once it committed. */
  async recordBooking(riderId: number, createdAt: number): Promise<void> {
    // The ride counts at once (the answer to the booking may already be out); whether the rider is
    // new in this bucket takes a shared counter, which may be a round trip away.
    const bucket = bucketOf(createdAt);
    this.#pending.set(bucket, { rides: 1, riders: 0, accepted: 0, acceptDelayMs: 0 });
    if (this.#counted.start !== bucket) this.#counted = { start: bucket, riders: new Set() };
    // Counted here before, so the shared count is past 1 already: no round trip per booking.
    if (this.#counted.riders.has(riderId)) return;
    // The counter's windows are the buckets (both aligned to the epoch), so count 1 means "first this bucket".
    const { count } = await this.#deps.counters.increment(`demand-rider:${riderId}`, BUCKET_MS);
    if (count === 1) this.#pending.set(bucket, { rides: 0, riders: 1, accepted: 0, acceptDelayMs: 0 });
    if (this.#counted.start === bucket && this.#counted.riders.size < COUNTED_RIDERS_MAX) this.#counted.riders.add(riderId);
  }

  /** Counts an accept against the bucket the ride was booked in. */
  recordAccept(createdAt: number, acceptedAt: number): void {
    this.#pending.set(bucketOf(createdAt), { rides: 0, riders: 0, accepted: 1, acceptDelayMs: acceptedAt - createdAt });
  }

  /** Buckets from `since` on, including what this instance has not written yet. */
  async buckets(since: number): Promise<Bucket[]> {
    const byStart = new Map<number, repository.BucketCounts>();
    for (const { start, ...counts } of await repository.bucketsSince(this.#deps.db, bucketOf(since))) byStart.set(start, counts);
    for (const [start, counts] of this.#pendingSince(bucketOf(since))) byStart.set(start, add(byStart.get(start) ?? zero(), counts));
    return [...byStart].map(([start, counts]) => ({ start, ...counts })).sort((a, b) => a.start - b.start);
  }

  close(): Promise<void> {
    return this.#pending.close();
  }

  #pendingSince(since: number): Array<[number, repository.BucketCounts]> {
    const pending: Array<[number, repository.BucketCounts]> = [];
    for (let start = since; start <= this.#deps.clock.now(); start += BUCKET_MS) {
      const counts = this.#pending.get(start);
      if (counts) pending.push([start, counts]);
    }
    return pending;
  }
}

const zero = (): repository.BucketCounts => ({ rides: 0, riders: 0, accepted: 0, acceptDelayMs: 0 });
