import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { CHUNK_SIZE, CoalescingWriter } from '../../src/platform/coalescing-writer.ts';

const silent = pino({ level: 'silent' });
/** Long enough that only explicit flush() and close() write during a test. */
const MANUAL = 3_600_000;

type Batch = Array<[string, number]>;

/** A write function that records each batch, can be told to fail, and can be held open. */
function recorder() {
  const batches: Batch[] = [];
  let failuresLeft = 0;
  let gate: Promise<void> | undefined;
  const write = async (entries: Batch) => {
    batches.push(entries.map(([key, value]) => [key, value]));
    if (gate) await gate;
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new Error('database unavailable');
    }
  };
  return {
    batches,
    write,
    failNext(times = 1) {
      failuresLeft = times;
    },
    /** Holds the next writes open until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

const sorted = (batch: Batch) => [...batch].sort(([a], [b]) => a.localeCompare(b));

describe('CoalescingWriter', () => {
  test('keeps only the latest value per key and writes everything pending in one call per flush', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    writer.set('b', 1);
    writer.set('a', 2);
    writer.set('c', 1);
    writer.set('a', 3);
    assert.equal(writer.size, 3);
    await writer.flush();
    assert.equal(db.batches.length, 1);
    assert.deepEqual(sorted(db.batches[0]), [['a', 3], ['b', 1], ['c', 1]]);
    assert.equal(writer.size, 0);

    writer.set('b', 2);
    await writer.flush();
    assert.deepEqual(db.batches, [db.batches[0], [['b', 2]]], 'the second flush writes only what changed since the first');
    await writer.close();
  });

  test('a flush with nothing pending does not call write', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    await writer.flush();
    writer.set('a', 1);
    await writer.flush();
    await writer.flush();
    assert.equal(db.batches.length, 1);
    await writer.close();
    assert.equal(db.batches.length, 1);
  });

  test('close() writes what is still pending', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    writer.set('b', 2);
    await writer.close();
    assert.equal(db.batches.length, 1);
    assert.deepEqual(sorted(db.batches[0]), [['a', 1], ['b', 2]]);
    assert.equal(writer.size, 0);
  });

  test('writes on its own every interval', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, 10, silent);
    writer.set('a', 1);
    for (let waited = 0; db.batches.length === 0 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(db.batches, [[['a', 1]]]);
    writer.set('a', 2);
    for (let waited = 0; db.batches.length === 1 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(db.batches[1], [['a', 2]]);
    await writer.close();
  });

  test('a large flush goes in chunks; a failed chunk alone is retried', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    const total = 2 * CHUNK_SIZE + 7;
    for (let i = 0; i < total; i++) writer.set(`k${i}`, i);
    db.failNext();
    await writer.flush();
    assert.deepEqual(db.batches.map((batch) => batch.length), [CHUNK_SIZE, CHUNK_SIZE, 7]);
    assert.equal(writer.size, CHUNK_SIZE, 'only the failed first chunk is pending again');
    await writer.flush();
    assert.deepEqual(sorted(db.batches[3]), sorted(db.batches[0]), 'the retry writes exactly the failed chunk');
    assert.equal(new Set(db.batches.flat().map(([key]) => key)).size, total, 'every entry was written');
    await writer.close();
  });

  test('a failed write is retried with the next flush, losing nothing', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    writer.set('b', 1);
    db.failNext();
    await writer.flush();
    assert.equal(db.batches.length, 1);
    assert.equal(writer.size, 2, 'the failed entries are pending again');

    writer.set('c', 1);
    await writer.flush();
    assert.equal(db.batches.length, 2);
    assert.deepEqual(sorted(db.batches[1]), [['a', 1], ['b', 1], ['c', 1]]);
    assert.equal(writer.size, 0);
    await writer.close();
    assert.equal(db.batches.length, 2, 'nothing is written twice after success');
  });

  test('a retry never overwrites a value set while the failed write was running', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    writer.set('b', 1);
    db.failNext();
    const release = db.hold();
    const flushing = writer.flush();
    await Promise.resolve();
    // While the doomed batch is in flight, 'a' moves on.
    writer.set('a', 2);
    release();
    await flushing;
    assert.equal(writer.size, 2);
    await writer.flush();
    assert.deepEqual(sorted(db.batches[1]), [['a', 2], ['b', 1]], "'a' keeps its newer value; 'b' is retried");
    await writer.close();
  });

  test('a value set after a failure replaces the failed one in the retry', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    db.failNext();
    await writer.flush();
    writer.set('a', 5);
    await writer.flush();
    assert.deepEqual(db.batches, [[['a', 1]], [['a', 5]]]);
    await writer.close();
  });

  test('repeated failures keep the entries until a write succeeds, and close() tries once more', async () => {
    const db = recorder();
    const writer = new CoalescingWriter(db.write, MANUAL, silent);
    writer.set('a', 1);
    db.failNext(3);
    await writer.flush();
    await writer.flush();
    await writer.flush();
    assert.equal(writer.size, 1);
    await writer.close();
    assert.equal(db.batches.length, 4);
    assert.deepEqual(db.batches[3], [['a', 1]]);
    assert.equal(writer.size, 0);
  });

  test('batches never overlap: a flush during a write waits for it and takes what came in meanwhile', async () => {
    const db = recorder();
    let running = 0;
    let overlapped = false;
    const writer = new CoalescingWriter<string, number>(async (entries) => {
      running++;
      if (running > 1) overlapped = true;
      await db.write(entries);
      running--;
    }, MANUAL, silent);
    writer.set('a', 1);
    const release = db.hold();
    const first = writer.flush();
    await Promise.resolve();
    writer.set('a', 2);
    writer.set('b', 1);
    const second = writer.flush();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(db.batches.length, 1, 'the second batch has not started while the first is running');
    release();
    await Promise.all([first, second]);
    assert.equal(overlapped, false);
    assert.deepEqual(db.batches[0], [['a', 1]]);
    assert.deepEqual(sorted(db.batches[1]), [['a', 2], ['b', 1]]);
    await writer.close();
  });

  test('a value being written is still answered by get() until its write has finished, combined with newer ones', async () => {
    const db = recorder();
    const writer = new CoalescingWriter<string, number>(db.write, MANUAL, silent, { merge: (a, b) => a + b });
    writer.set('bucket', 3);
    const release = db.hold();
    const flushing = writer.flush();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(db.batches.length, 1, 'the write is under way');
    assert.equal(writer.get('bucket'), 3, 'what is being written still counts');
    writer.set('bucket', 2);
    assert.equal(writer.get('bucket'), 5);
    release();
    await flushing;
    assert.equal(writer.get('bucket'), 2, 'written: only the newer value waits');
    await writer.close();
  });
});
