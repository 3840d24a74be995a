import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distanceKm } from '../../../src/platform/geo/geo.ts';
import { contract } from '../../../src/platform/routing/contraction.ts';
import { GraphBuilder, largestStronglyConnected, type PlainGraph } from '../../../src/platform/routing/graph-builder.ts';
import { NodeGrid } from '../../../src/platform/routing/node-grid.ts';
import { COORDINATE_SCALE } from '../../../src/platform/routing/road-graph.ts';
import { RouteSearch } from '../../../src/platform/routing/route-search.ts';

/** A deterministic pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

/** A jittered grid of two-way and one-way streets of mixed speeds. */
function randomCity(size: number, seed: number) {
  const next = random(seed);
  const builder = new GraphBuilder();
  const at = (row: number, col: number) => row * size + col;
  const points: Array<[number, number]> = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const point: [number, number] = [12.9 + row * 0.002 + (next() - 0.5) * 0.0012, 77.5 + col * 0.002 + (next() - 0.5) * 0.0012];
      points.push(point);
      builder.addNode(...point);
    }
  }
  const street = (a: number, b: number) => {
    const metres = distanceKm(...points[a], ...points[b]) * 1000;
    const speed = [15, 20, 30, 45, 60][Math.floor(next() * 5)];
    const kind = next();
    if (kind < 0.1) return; // no road here
    if (kind < 0.9) builder.addEdge(a, b, metres, speed);
    if (kind < 0.8 || kind >= 0.9) builder.addEdge(b, a, metres, speed);
  };
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (col + 1 < size) street(at(row, col), at(row, col + 1));
      if (row + 1 < size) street(at(row, col), at(row + 1, col));
    }
  }
  return builder.build();
}

/** Plain Dijkstra on the roads alone, with an array as its queue: slow, obviously right. */
function reference(graph: PlainGraph, source: number): Float64Array {
  const n = graph.lat.length;
  const seconds = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  seconds[source] = 0;
  for (;;) {
    let v = -1;
    for (let w = 0; w < n; w++) if (!done[w] && seconds[w] < Infinity && (v < 0 || seconds[w] < seconds[v])) v = w;
    if (v < 0) return seconds;
    done[v] = 1;
    for (let e = graph.firstEdge[v]; e < graph.firstEdge[v + 1]; e++) seconds[graph.target[e]] = Math.min(seconds[graph.target[e]], seconds[v] + graph.seconds[e]);
  }
}

/** The fastest road edge from `from` to `to` in the plain graph. */
function road(graph: PlainGraph, from: number, to: number): { seconds: number; metres: number } | undefined {
  let best: { seconds: number; metres: number } | undefined;
  for (let e = graph.firstEdge[from]; e < graph.firstEdge[from + 1]; e++) {
    if (graph.target[e] === to && (!best || graph.seconds[e] < best.seconds)) best = { seconds: graph.seconds[e], metres: graph.metres[e] };
  }
  return best;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-4 * Math.max(1, b);

describe('the road graph: contraction, fastest paths, components, nearest node', () => {
  const { graph: plain } = randomCity(30, 7);
  const { graph } = contract(plain);
  const search = new RouteSearch(graph);
  const n = plain.lat.length;

  test('the same fastest times as plain Dijkstra on a city of one-way and two-way streets, and the path is made of its roads', () => {
    const next = random(99);
    for (let i = 0; i < 12; i++) {
      const source = Math.floor(next() * n);
      const truth = reference(plain, source);
      for (let j = 0; j < 20; j++) {
        const target = Math.floor(next() * n);
        const cost = search.fastest(source, target);
        assert.ok(cost, 'every node reaches every other in the kept part');
        assert.ok(close(cost.seconds, truth[target]), `${source}→${target}: ${cost.seconds} vs ${truth[target]}`);
        // The unpacked path runs on roads only, from the source to the target, and costs what was answered.
        const nodes = search.lastPath();
        assert.equal(nodes[0], source);
        assert.equal(nodes.at(-1), target);
        let [seconds, metres] = [0, 0];
        for (let k = 1; k < nodes.length; k++) {
          const edge = road(plain, nodes[k - 1], nodes[k]);
          assert.ok(edge, `a road ${nodes[k - 1]}→${nodes[k]}`);
          [seconds, metres] = [seconds + edge.seconds, metres + edge.metres];
        }
        assert.ok(close(seconds, cost.seconds), 'the path takes the time answered');
        assert.ok(close(metres, cost.metres), 'and is as long as answered');
      }
    }
  });

  test('a table holds the same times as single searches', () => {
    const next = random(5);
    const sources = Array.from({ length: 6 }, () => Math.floor(next() * n));
    const targets = [...Array.from({ length: 7 }, () => Math.floor(next() * n)), sources[0]];
    const table = search.table(sources, targets);
    sources.forEach((source, i) => {
      targets.forEach((target, j) => {
        const single = search.fastest(source, target)!;
        assert.ok(close(table[i][j]!.seconds, single.seconds), `${i},${j} seconds`);
        assert.ok(close(table[i][j]!.metres, single.metres), `${i},${j} metres`);
      });
    });
    assert.equal(table[0][targets.length - 1]!.seconds, 0, 'from a node to itself');
  });

  test('only the largest part where every node reaches every other is kept', () => {
    // A two-way triangle 0-1-2, a one-way spur 2 → 3 (no way back), a two-way pair 4-5 apart.
    const firstEdge = Uint32Array.from([0, 2, 4, 7, 7, 8, 9]);
    const target = Uint32Array.from([1, 2, 0, 2, 0, 1, 3, 5, 4]);
    assert.deepEqual([...largestStronglyConnected(6, firstEdge, target)], [1, 1, 1, 0, 0, 0]);
    const builder = new GraphBuilder();
    for (let i = 0; i < 4; i++) builder.addNode(12.9 + i * 0.001, 77.5);
    builder.addEdge(0, 1, 100, 20);
    builder.addEdge(1, 0, 100, 20);
    builder.addEdge(1, 2, 100, 20);
    builder.addEdge(2, 1, 100, 20);
    builder.addEdge(2, 3, 100, 20);
    const { graph, droppedNodes } = builder.build();
    assert.equal(droppedNodes, 1);
    assert.deepEqual([...graph.lat], [12.9, 12.901, 12.902].map((lat) => Math.round(lat * COORDINATE_SCALE)));
    assert.equal(graph.target.length, 4);
  });

  test('the grid finds the nearest node, also across cells, and nothing beyond the limit', () => {
    const { graph } = randomCity(30, 5);
    const grid = new NodeGrid(graph, 0.003);
    const next = random(17);
    for (let i = 0; i < 300; i++) {
      const point = { lat: 12.89 + next() * 0.08, lon: 77.49 + next() * 0.08 };
      let best = -1;
      let bestKm = Infinity;
      for (let v = 0; v < graph.lat.length; v++) {
        const km = distanceKm(point.lat, point.lon, graph.lat[v] / COORDINATE_SCALE, graph.lon[v] / COORDINATE_SCALE);
        if (km < bestKm) [best, bestKm] = [v, km];
      }
      const found = grid.nearest(point, 5);
      assert.ok(found, 'something within 5 km');
      assert.ok(Math.abs(found.km - bestKm) < 1e-9, `the nearest (${found.node} at ${found.km} km, brute force ${best} at ${bestKm} km)`);
      if (bestKm > 0.2) assert.equal(grid.nearest(point, 0.2), undefined);
    }
  });
});
