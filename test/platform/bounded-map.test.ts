import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedMap } from '../../src/platform/bounded-map.ts';

test('a bounded map drops its oldest key to admit a new one, and never for an overwrite', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2);
  map.set('b', 3);
  assert.deepEqual([...map], [['a', 1], ['b', 3]], 'overwriting a key of a full map drops nothing');
  map.set('c', 4);
  assert.deepEqual([...map], [['b', 3], ['c', 4]], 'the oldest key made room');
  map.delete('b');
  map.set('d', 5);
  assert.deepEqual([...map], [['c', 4], ['d', 5]], 'a deleted key frees its place');
});
