import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { after, before, describe, test } from 'node:test';
import { unitsOfWork } from '../../src/db/transaction.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide } from '../helpers/rides.ts';

// Issue 12.12: on SQLite every write joins one group-commit batch, so a driver sending accept after
// accept must not put a write into it for each refusal. What reads can refuse is refused before
// any unit of work starts; the units each request starts are told by Transactions' test channel.
describe('accepts that reads can refuse never reach the writer', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** Runs `requests` and answers how many units of work they started. */
  async function unitsStartedBy(requests: () => Promise<void>): Promise<number> {
    const ours = new AsyncLocalStorage<true>();
    let started = 0;
    const count = () => {
      if (ours.getStore()) started++;
    };
    unitsOfWork.subscribe(count);
    try {
      await ours.run(true, requests);
    } finally {
      unitsOfWork.unsubscribe(count);
    }
    return started;
  }

  test('a busy driver spamming accepts of open and of taken rides gets 409s without a single write', async () => {
    const [rider, busy, other] = [await signUp(t), await signUp(t, { role: 'DRIVER' }), await signUp(t, { role: 'DRIVER' })];
    const current = await bookRide(t, rider);
    const open = [await bookRide(t, rider), await bookRide(t, rider)];
    const taken = await bookRide(t, rider);
    assertOk(await accept(t, busy, current.id));
    assertOk(await accept(t, other, taken.id));

    const spam = await unitsStartedBy(async () => {
      const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => accept(t, busy, i % 2 === 0 ? open[i % 4 === 0 ? 0 : 1].id : taken.id)));
      for (const [i, reply] of replies.entries()) assertError(reply, 409, i % 2 === 0 ? 'DRIVER_BUSY' : 'RIDE_NOT_REQUESTED');
    });
    assert.equal(spam, 0, 'units of work started by 40 refused accepts');

    // The count is real: an accept that can succeed starts its one unit.
    const free = await signUp(t, { role: 'DRIVER' });
    assert.equal(await unitsStartedBy(async () => assertOk(await accept(t, free, open[0].id))), 1);
  });
});
