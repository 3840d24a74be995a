import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distanceKm } from '../../../src/platform/geo/geo.ts';
import { GraphBuilder, largestStronglyConnected } from '../../../src/platform/routing/graph-builder.ts';
import { NodeGrid } from '../../../src/platform/routing/node-grid.ts';
import { PathFinder } from '../../../src/platform/routing/path-finder.ts';
import { COORDINATE_SCALE } from '../../../src/platform/routing/road-graph.ts';

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

describe('fastest paths', () => {
  test('A* finds the same fastest times as Dijkstra on a city of one-way and two-way streets', () => {
    const { graph } = randomCity(40, 7);
    const finder = new PathFinder(graph);
    const next = random(99);
    const n = graph.lat.length;
    for (let i = 0; i < 200; i++) {
      const [source, target] = [Math.floor(next() * n), Math.floor(next() * n)];
      const aStar = finder.fastest(source, target);
      const [dijkstra] = finder.fromSource(source, [target]);
      assert.ok(aStar && dijkstra, 'every node reaches every other in the kept part');
      assert.ok(Math.abs(aStar.seconds - dijkstra.seconds) < 1e-6, `${source}→${target}: ${aStar.seconds} vs ${dijkstra.seconds}`);
      // The path it reports costs what it says.
      const nodes = finder.pathTo(target);
      assert.equal(nodes[0], source);
      assert.equal(nodes.at(-1), target);
    }
  });

  test('the path is made of the graph edges and its cost is theirs', () => {
    const { graph } = randomCity(20, 3);
    const finder = new PathFinder(graph);
    const cost = finder.fastest(0, graph.lat.length - 1)!;
    const nodes = finder.pathTo(graph.lat.length - 1);
    let seconds = 0;
    for (let i = 1; i < nodes.length; i++) {
      const [from, to] = [nodes[i - 1], nodes[i]];
      let best = Infinity;
      for (let e = graph.firstEdge[from]; e < graph.firstEdge[from + 1]; e++) if (graph.target[e] === to) best = Math.min(best, graph.seconds[e]);
      assert.ok(best < Infinity, `an edge ${from}→${to}`);
      seconds += best;
    }
    assert.ok(Math.abs(seconds - cost.seconds) < 1e-3);
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
