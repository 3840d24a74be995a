import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assign, type Edge, type Pair } from '../../../src/modules/dispatch/assignment.ts';

/** A small deterministic random source, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Every matching, the largest ones first, cheapest among them: the answer by enumeration. */
function bruteForce(rides: number, edges: readonly Edge[]): { size: number; cost: number } {
  const byRide = Array.from({ length: rides }, (_, ride) => edges.filter((e) => e.ride === ride));
  let best = { size: 0, cost: 0 };
  const used = new Set<number>();
  const walk = (ride: number, size: number, cost: number) => {
    if (ride === rides) {
      if (size > best.size || (size === best.size && cost < best.cost)) best = { size, cost };
      return;
    }
    walk(ride + 1, size, cost); // this ride left out
    for (const edge of byRide[ride]) {
      if (used.has(edge.driver)) continue;
      used.add(edge.driver);
      walk(ride + 1, size + 1, cost + edge.cost);
      used.delete(edge.driver);
    }
  };
  walk(0, 0, 0);
  return best;
}

function costOf(pairs: Pair[], edges: readonly Edge[]): number {
  return pairs.reduce((sum, { ride, driver }) => sum + Math.min(...edges.filter((e) => e.ride === ride && e.driver === driver).map((e) => e.cost)), 0);
}

describe('assignment (batched dispatch)', () => {
  test('a driver wanted by two rides goes where it saves the most', () => {
    // Greedy in ride order would give driver 10 to ride 0 (cost 1) and leave ride 1 with 9: total 10.
    const edges = [
      { ride: 0, driver: 10, cost: 1 },
      { ride: 0, driver: 11, cost: 2 },
      { ride: 1, driver: 10, cost: 1 },
      { ride: 1, driver: 12, cost: 9 },
    ];
    const pairs = assign(2, edges);
    assert.deepEqual(pairs, [{ ride: 0, driver: 11 }, { ride: 1, driver: 10 }]);
    assert.equal(costOf(pairs, edges), 3);
  });

  test('as many rides as possible get a driver, even if a cheaper smaller matching exists', () => {
    const edges = [
      { ride: 0, driver: 1, cost: 1 },
      { ride: 0, driver: 2, cost: 100 },
      { ride: 1, driver: 1, cost: 1 },
    ];
    assert.deepEqual(assign(2, edges), [{ ride: 0, driver: 2 }, { ride: 1, driver: 1 }]);
  });

  test('rides without candidates stay out; no driver is used twice', () => {
    const pairs = assign(3, [{ ride: 1, driver: 5, cost: 3 }, { ride: 2, driver: 5, cost: 1 }]);
    assert.deepEqual(pairs, [{ ride: 2, driver: 5 }]);
    assert.deepEqual(assign(0, []), []);
  });

  test('refuses costs that are not non-negative integers (the arithmetic must be exact)', () => {
    assert.throws(() => assign(1, [{ ride: 0, driver: 1, cost: 1.5 }]), RangeError);
    assert.throws(() => assign(1, [{ ride: 0, driver: 1, cost: -1 }]), RangeError);
  });

  test('matches brute force on 3,000 random sparse instances (size first, then cost)', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const rides = 1 + Math.floor(next() * 6);
      const drivers = 1 + Math.floor(next() * 7);
      const edges: Edge[] = [];
      for (let ride = 0; ride < rides; ride++) {
        for (let driver = 0; driver < drivers; driver++) {
          if (next() < 0.45) edges.push({ ride, driver: 100 + driver, cost: Math.floor(next() * (next() < 0.3 ? 5 : 1000)) });
        }
      }
      const pairs = assign(rides, edges);
      assert.equal(new Set(pairs.map((p) => p.driver)).size, pairs.length, `seed ${seed}: a driver used twice`);
      for (const { ride, driver } of pairs) assert.ok(edges.some((e) => e.ride === ride && e.driver === driver), `seed ${seed}: not an edge`);
      const best = bruteForce(rides, edges);
      assert.deepEqual({ size: pairs.length, cost: costOf(pairs, edges) }, best, `seed ${seed}`);
    }
  });
});
