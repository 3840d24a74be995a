import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { RedisLease } from '../../src/platform/lease.ts';
import { productionServicesMissing, REDIS_URL } from '../helpers/production.ts';

// The dispatch leader's lease (decisions.md "Dispatch"): one holder at a time across instances,
// renewed by its holder, taken over by another once a dead holder's time has run out.

const missing = await productionServicesMissing();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Redis lease', { skip: missing }, () => {
  const clients: Redis[] = [];
  let name = '';
  before(() => {
    name = `lease-test-${randomBytes(4).toString('hex')}`;
  });
  after(() => {
    for (const client of clients) client.disconnect();
  });
  // Each lease has a Redis connection of its own, as each instance does.
  const lease = (ttlMs: number) => {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    return new RedisLease(client, name, ttlMs);
  };

  test('one holder at a time: while the first renews it, the second never gets it', async () => {
    // Renewed every 100 ms, a lease of 2 s never runs out, however slow the machine is.
    const [first, second] = [lease(2_000), lease(2_000)];
    assert.equal(await first.hold(), true);
    for (let i = 0; i < 6; i++) {
      assert.equal(await second.hold(), false, `attempt ${i}`);
      assert.equal(await first.hold(), true, `renewal ${i}`);
      await pause(100);
    }
    await first.release();
  });

  test("a holder that stops renewing loses the lease to the next one when its time runs out", async () => {
    const [dead, next] = [lease(300), lease(300)];
    assert.equal(await dead.hold(), true);
    assert.equal(await next.hold(), false);
    let tries = 0;
    while (!(await next.hold())) {
      assert.ok(++tries < 100, 'taken over within 100 tries');
      await pause(60);
    }
    assert.equal(await dead.hold(), false, 'the old holder knows it lost the lease');
    await next.release();
  });

  test('release hands the lease over at once; only its holder can release it', async () => {
    const [holder, other] = [lease(2_000), lease(2_000)];
    assert.equal(await holder.hold(), true);
    await other.release();
    assert.equal(await other.hold(), false, "another instance's release changes nothing");
    await holder.release();
    assert.equal(await other.hold(), true);
    await other.release();
  });
});
