import assert from 'node:assert/strict';
import { test } from 'node:test';
import { medianScores, shortfalls, THRESHOLDS } from '../../scripts/lighthouse-scores.ts';

// `npm run lighthouse` fails CI on these two functions: a page's score is each category's median
// over its runs, and a median below its category's threshold is a failure.

const run = (performance: number, accessibility = 100, bestPractices = 100) => ({ performance, accessibility, 'best-practices': bestPractices });

test('the median of each category is taken on its own, so one slow run does not decide', () => {
  assert.deepEqual(medianScores([run(97, 100, 96), run(71, 100, 96), run(95, 98, 96)]), run(95, 100, 96));
  assert.deepEqual(medianScores([run(88)]), run(88));
  // An even count takes the mean of the middle two, rounded as Lighthouse's scores are.
  assert.deepEqual(medianScores([run(90), run(99), run(93), run(60)]), run(92));
  assert.throws(() => medianScores([]), /no run/);
});

test('a score equal to its threshold passes; one point under fails and names the category and both numbers', () => {
  assert.deepEqual(THRESHOLDS, { performance: 90, accessibility: 95, 'best-practices': 95 });
  assert.deepEqual(shortfalls(run(90, 95, 95)), []);
  assert.deepEqual(shortfalls(run(89, 95, 95)), ['performance 89 < 90']);
  assert.deepEqual(shortfalls(run(100, 94, 80)), ['accessibility 94 < 95', 'best-practices 80 < 95']);
});
