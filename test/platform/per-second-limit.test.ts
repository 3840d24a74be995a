import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PerSecondLimit } from '../../src/platform/per-second-limit.ts';

test('a per-second limit allows each key its count within a second of the clock, and a whole count again in the next', () => {
  const limit = new PerSecondLimit(2);
  const second = 1_800_000_000_000;
  assert.deepEqual([limit.take(1, second), limit.take(1, second + 10), limit.take(1, second + 999)], [true, true, false]);
  assert.equal(limit.take(2, second + 999), true, 'another key has its own count');
  assert.deepEqual([limit.take(1, second + 1000), limit.take(1, second + 1500), limit.take(1, second + 1999)], [true, true, false]);
});

test('a per-second limit of 0 allows everything', () => {
  const limit = new PerSecondLimit(0);
  for (let i = 0; i < 100; i++) assert.equal(limit.take(1, 0), true);
});
