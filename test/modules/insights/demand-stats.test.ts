import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { BUCKET_MS, DemandStats } from '../../../src/modules/insights/demand-stats.service.ts';
import { MemoryCounters, type Counters } from '../../../src/platform/counters.ts';
import { migratedDatabase, TestClock } from '../../helpers/app.ts';

/** The shared counters of several instances, counting how often they are asked. */
class CountingCounters implements Counters {
  readonly #inner: Counters;
  asked = 0;
  constructor(inner: Counters) {
    this.#inner = inner;
  }
  increment(key: string, windowMs: number) {
    this.asked++;
    return this.#inner.increment(key, windowMs);
  }
  close() {
    return this.#inner.close();
  }
}

describe('demand statistics per 15-minute bucket', () => {
  let database: Awaited<ReturnType<typeof migratedDatabase>>;
  const clock = new TestClock();
  // Start of a bucket, so the test's bookings all fall in one.
  clock.advance(BUCKET_MS - (clock.now() % BUCKET_MS));
  const shared = new CountingCounters(new MemoryCounters(clock));
  const instances: DemandStats[] = [];
  const instance = () => {
    const { db, transactions } = database.connection;
    const stats = new DemandStats({ db, transactions, counters: shared, clock, log: pino({ level: 'silent' }) });
    instances.push(stats);
    return stats;
  };

  before(async () => {
    database = await migratedDatabase();
  });
  after(async () => {
    for (const stats of instances) await stats.close();
    await shared.close();
    await database.close();
  });

  test('a rider counts once per bucket however often they book, on any instance, and asks the shared counter once per instance', async () => {
    const a = instance();
    const b = instance();
    const bucket = clock.now();
    for (let i = 0; i < 5; i++) await a.recordBooking(1, clock.now());
    await b.recordBooking(1, clock.now());
    await a.recordBooking(2, clock.now());
    assert.equal(shared.asked, 3, 'rider 1 once on A and once on B, rider 2 once on A');
    // Written once each instance flushes; a third instance reads what both wrote.
    await Promise.all([a.close(), b.close()]);
    const reader = instance();
    const written = (await reader.buckets(bucket)).find((row) => row.start === bucket);
    assert.deepEqual({ rides: written?.rides, riders: written?.riders }, { rides: 7, riders: 2 });

    // The next bucket counts each rider again.
    clock.advance(BUCKET_MS);
    await reader.recordBooking(1, clock.now());
    await reader.recordBooking(1, clock.now());
    assert.equal(shared.asked, 4);
    const next = (await reader.buckets(clock.now())).find((row) => row.start === clock.now());
    assert.deepEqual({ rides: next?.rides, riders: next?.riders }, { rides: 2, riders: 1 });
  });
});
