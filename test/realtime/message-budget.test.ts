import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageBudget } from '../../src/platform/realtime/message-budget.ts';

test('a message budget handles its count in a second, refuses the next one, drops the rest, and calls more than the flood mark a flood', () => {
  const budget = new MessageBudget(3, 6);
  const now = 1_800_000_000_500;
  const verdicts = Array.from({ length: 8 }, () => budget.take(now));
  assert.deepEqual(verdicts, ['handle', 'handle', 'handle', 'refuse', 'drop', 'drop', 'flood', 'flood']);
  assert.equal(budget.take(now + 500), 'handle', 'the next second starts afresh');
});
