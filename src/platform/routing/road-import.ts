import { distanceKm } from '../geo/geo.ts';
import { contract } from './contraction.ts';
import { GraphBuilder } from './graph-builder.ts';
import { readOsm } from './osm-reader.ts';
import { drivable, type Drivable } from './road-classes.ts';
import type { RoadGraph } from './road-graph.ts';

// An OpenStreetMap extract → a road graph (what `npm run import-roads` writes). Two passes over the
// file, so memory follows the roads, not the extract: the first keeps the drivable ways and the node
// ids they use; the second keeps those nodes' positions and drops every other node (buildings,
// footpaths, shops: most of an extract). Each way's consecutive nodes become edges in the directions
// a car may drive them, timed at the way's speed; then the graph is contracted for fast search.

export interface ImportStats {
  /** Drivable ways found. */
  ways: number;
  nodes: number;
  /** One-way road edges (a two-way street block is two). */
  roads: number;
  /** Edges the contraction added, each standing for a fastest path. */
  shortcuts: number;
  /** Nodes left out for not being in the largest strongly connected part (islands, one-way dead ends). */
  droppedNodes: number;
  /** Way nodes the extract did not contain (ways cut at its border). */
  missingNodes: number;
}

export async function importRoads(file: string): Promise<{ graph: RoadGraph; stats: ImportStats }> {
  const ways: Array<Drivable & { start: number; end: number }> = [];
  const refs: number[] = [];
  for await (const way of readOsm(file, 'way')) {
    const rules = drivable(way.tags);
    if (!rules || way.refs.length < 2) continue;
    ways.push({ ...rules, start: refs.length, end: refs.length + way.refs.length });
    refs.push(...way.refs);
  }

  // The node ids the ways use, sorted, each once; a node's place in this list is its number until the graph is built.
  const ids = uniqueSorted(refs);
  const lat = new Float64Array(ids.length).fill(Number.NaN);
  const lon = new Float64Array(ids.length).fill(Number.NaN);
  for await (const node of readOsm(file, 'node')) {
    const i = indexOf(ids, node.id);
    if (i < 0) continue;
    lat[i] = node.lat;
    lon[i] = node.lon;
  }

  const builder = new GraphBuilder();
  const numbers = new Int32Array(ids.length).fill(-1);
  let missingNodes = 0;
  for (let i = 0; i < ids.length; i++) {
    if (Number.isNaN(lat[i])) missingNodes++;
    else numbers[i] = builder.addNode(lat[i], lon[i]);
  }
  for (const way of ways) {
    for (let k = way.start + 1; k < way.end; k++) {
      const [a, b] = [indexOf(ids, refs[k - 1]), indexOf(ids, refs[k])];
      if (numbers[a] < 0 || numbers[b] < 0) continue;
      const metres = distanceKm(lat[a], lon[a], lat[b], lon[b]) * 1000;
      if (way.forward) builder.addEdge(numbers[a], numbers[b], metres, way.speedKmh);
      if (way.backward) builder.addEdge(numbers[b], numbers[a], metres, way.speedKmh);
    }
  }
  if (builder.nodes === 0) throw new Error(`${file}: no drivable roads found`);
  const { graph: plain, droppedNodes } = builder.build();
  const { graph, shortcuts } = contract(plain);
  return { graph, stats: { ways: ways.length, nodes: plain.lat.length, roads: plain.target.length, shortcuts, droppedNodes, missingNodes } };
}

function uniqueSorted(values: readonly number[]): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[size++] = sorted[i];
  return sorted.subarray(0, size);
}

/** Binary search: the position of `id` in the sorted `ids`, or -1. */
function indexOf(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (ids[middle] < id) low = middle + 1;
    else if (ids[middle] > id) high = middle - 1;
    else return middle;
  }
  return -1;
}
