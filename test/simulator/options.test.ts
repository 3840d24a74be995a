import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OptionsError, parseOptions } from '../../simulator/options.ts';

// --compare runs a size of its own: small and dense enough that rides compete for drivers (where
// the dispatch modes choose differently) and short enough to finish in a few minutes.

describe('simulator options', () => {
  test('--compare has its own defaults; what is given still wins', () => {
    const compare = parseOptions(['--compare', 'nearest,batched'], 'simulate', {});
    assert.deepEqual(
      [compare.city.name, compare.drivers, compare.riders, compare.minutes, compare.speed, compare.load, compare.drainMinutes],
      ['Central Bengaluru', 30, 120, 20, 40, 6, 10],
    );
    const given = parseOptions(['--compare', 'nearest,batched', '--drivers', '60', '--city', 'delhi'], 'simulate', {});
    assert.deepEqual([given.city.name, given.drivers, given.load], ['Delhi', 60, 6]);
  });

  test('a run against a service keeps the whole city and its hour', () => {
    const run = parseOptions(['--url', 'http://localhost:8080'], 'simulate', {});
    assert.deepEqual([run.city.name, run.drivers, run.minutes, run.speed, run.load, run.drainMinutes], ['Bengaluru', 40, 60, 20, 1, 90]);
    const demo = parseOptions([], 'demo', {});
    assert.deepEqual([demo.drivers, demo.minutes, demo.load], [50, 1440, 1.5]);
  });

  test("--city-pricing reprices a service at --url only: the embedded services get the city's pricing anyway", () => {
    assert.equal(parseOptions(['--url', 'http://localhost:8080'], 'simulate', {}).cityPricing, false, 'off unless asked');
    assert.equal(parseOptions(['--url', 'http://localhost:8080', '--city-pricing'], 'simulate', {}).cityPricing, true);
    assert.throws(() => parseOptions(['--city-pricing'], 'demo', {}), OptionsError);
    assert.throws(() => parseOptions(['--compare', 'nearest,batched', '--city-pricing'], 'simulate', {}), /--city-pricing is for a service at --url/);
  });
});
