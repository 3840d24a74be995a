import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdTable } from '../../../src/platform/geo/id-table.ts';
import { mulberry32 } from '../../helpers/geo.ts';

test('the id table agrees with a Map through random sets, overwrites and deletes', () => {
  const random = mulberry32(99);
  const table = new IdTable();
  const reference = new Map<number, number>();
  // Few distinct ids force long probe runs and many deletions across them; some ids exceed 2^32.
  const id = () => (random() < 0.1 ? 2 ** 32 + 1 + Math.floor(random() * 500) : 1 + Math.floor(random() * 3000));
  for (let step = 0; step < 200_000; step++) {
    const key = id();
    if (random() < 0.45) {
      table.delete(key);
      reference.delete(key);
    } else {
      const value = Math.floor(random() * 1e6);
      table.set(key, value);
      reference.set(key, value);
    }
    if (step % 5000 === 0) {
      assert.equal(table.size, reference.size);
      for (let k = 1; k <= 3000; k++) assert.equal(table.get(k), reference.get(k) ?? -1, `id ${k} at step ${step}`);
    }
  }
  for (const [key, value] of reference) assert.equal(table.get(key), value);
  table.clear();
  assert.equal(table.size, 0);
  assert.equal(table.get([...reference.keys()][0]), -1);
});
