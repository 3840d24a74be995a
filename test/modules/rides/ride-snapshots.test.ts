import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServiceEvents } from '../../../src/events.ts';
import { connectDatabase, type DatabaseConnection } from '../../../src/db/connect.ts';
import type { Db } from '../../../src/db/database.ts';
import { RideSnapshots, SNAPSHOT_TTL_MS } from '../../../src/modules/rides/ride-snapshots.ts';
import { MemoryEventBus } from '../../../src/platform/event-bus.ts';
import { createTestApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { acceptedRide, assertOk, setStatus } from '../../helpers/rides.ts';

// The snapshots sit on the position hot path: they must answer without waiting for the database
// once a ride is known, read each ride once at a time, and never keep what a change made old.
describe('ride snapshots', () => {
  let t: TestApp;
  let database: DatabaseConnection;
  let reads = 0;
  let db: Db;

  before(async () => {
    t = await createTestApp();
    database = connectDatabase(t.config.database);
    // Counts the reads the snapshots make, on the service's own database: every statement run,
    // whether built per call or prepared (the snapshot reads are prepared statements).
    db = database.db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        reads++;
        return result;
      },
    });
  });
  after(async () => {
    await database.destroy();
    await t.close();
  });

  const snapshotsWith = (clock: TestClock) => new RideSnapshots(db, new MemoryEventBus<ServiceEvents>(), clock);

  test('readers of one ride at once share one read', async () => {
    const { booked } = await acceptedRide(t, await signUp(t), await signUp(t, { role: 'DRIVER' }));
    const snapshots = snapshotsWith(new TestClock());
    reads = 0;
    const rides = await Promise.all(Array.from({ length: 20 }, () => snapshots.get(booked.id)));
    assert.equal(reads, 1);
    assert.ok(rides.every((ride) => ride?.status === 'ACCEPTED'));
  });

  test('an old snapshot answers once while it is read again behind the answer', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, await signUp(t), driver);
    const clock = new TestClock();
    const snapshots = snapshotsWith(clock);
    assert.equal((await snapshots.get(booked.id))?.status, 'ACCEPTED');
    // Changed where these snapshots cannot hear it (their bus is their own): only age refreshes them.
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    assert.equal((await snapshots.get(booked.id))?.status, 'ACCEPTED', 'fresh: no read');
    clock.advance(SNAPSHOT_TTL_MS + 1);
    reads = 0;
    assert.equal((await snapshots.get(booked.id))?.status, 'ACCEPTED', 'old: answered at once');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(reads, 1, 'read again behind the answer');
    assert.equal((await snapshots.get(booked.id))?.status, 'PICKED');
  });

  test('a read that began before a change is not kept, and a later reader does not share it', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, await signUp(t), driver);
    const snapshots = snapshotsWith(new TestClock());
    const early = snapshots.get(booked.id);
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    await snapshots.changed({ id: booked.id, driver_id: driver.id, status: 'PICKED' });
    const late = snapshots.get(booked.id);
    assert.equal((await early)?.status, 'ACCEPTED');
    assert.equal((await late)?.status, 'PICKED');
    reads = 0;
    assert.equal((await snapshots.get(booked.id))?.status, 'PICKED');
    assert.equal(reads, 0, 'the later read was kept');
  });

  test("a driver's active ride is found, and answered from memory until it ages", async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, await signUp(t), driver);
    const snapshots = snapshotsWith(new TestClock());
    assert.equal((await snapshots.activeRideOf(driver.id))?.id, booked.id);
    reads = 0;
    assert.equal((await snapshots.activeRideOf(driver.id))?.id, booked.id);
    assert.equal(reads, 0);
  });
});
