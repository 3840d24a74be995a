import { readFileSync } from 'node:fs';

// A road graph as the router holds it, and its file. The graph is a contraction hierarchy: every node
// has a rank, and besides the roads it has shortcuts (one edge standing for a fastest path through
// lower-ranked nodes) so that a search only ever climbs in rank; see contraction.ts for how it is
// built and route-search.ts for how it is searched. Edges are in two CSR lists by their lower end:
// `up` holds the edges that leave a node for a higher one, `down` the edges that reach a node from a
// higher one (searched backwards from a destination).
//
// The file is a 24-byte header, then the arrays one after another, every element 4 bytes, so loading
// is one read and views onto it (no parsing, no objects per node):
//
//   magic "RHRG" · format version · node count n · up edges u · down edges d · 0
//   lat[n], lon[n]                      int32, 1e-7 degrees (OpenStreetMap's precision, about 1 cm)
//   up: first[n + 1], other[u], seconds[u], metres[u], middle[u]
//   down: first[n + 1], other[d], seconds[d], metres[d], middle[d]
//
// first: uint32, a node's edges are first[v] … first[v + 1] - 1; other: uint32, the edge's other end;
// seconds, metres: float32; middle: int32, the node a shortcut passes (-1 for a road).
// Memory: 16 bytes a node, and 16 bytes per edge or shortcut.

export interface EdgeList {
  first: Uint32Array;
  other: Uint32Array;
  seconds: Float32Array;
  metres: Float32Array;
  middle: Int32Array;
}

export interface RoadGraph {
  lat: Int32Array;
  lon: Int32Array;
  up: EdgeList;
  down: EdgeList;
}

const MAGIC = 0x47524852; // "RHRG" read as a little-endian uint32
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;
/** Coordinates are stored in 1e-7 degrees. */
export const COORDINATE_SCALE = 1e7;

export const nodeCount = (graph: RoadGraph): number => graph.lat.length;
/** Roads and shortcuts. */
export const edgeCount = (graph: RoadGraph): number => graph.up.other.length + graph.down.other.length;

const arraysOf = (graph: RoadGraph) => [graph.lat, graph.lon, ...[graph.up, graph.down].flatMap((list) => [list.first, list.other, list.seconds, list.metres, list.middle])];

/** Bytes the graph's arrays hold. */
export const graphBytes = (graph: RoadGraph): number => arraysOf(graph).reduce((sum, array) => sum + array.byteLength, 0);

export function encodeRoadGraph(graph: RoadGraph): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES + graphBytes(graph));
  const header = new DataView(bytes.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, FORMAT_VERSION, true);
  header.setUint32(8, nodeCount(graph), true);
  header.setUint32(12, graph.up.other.length, true);
  header.setUint32(16, graph.down.other.length, true);
  let offset = HEADER_BYTES;
  for (const array of arraysOf(graph)) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += array.byteLength;
  }
  return bytes;
}

/** The graph in `bytes` (views onto them, no copy), or an error saying what is wrong with them. */
export function decodeRoadGraph(bytes: Uint8Array): RoadGraph {
  // Typed-array views need 4-byte alignment; a buffer that is not aligned is copied once.
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (data.byteLength < HEADER_BYTES) throw new Error('not a road graph (too short)');
  const header = new DataView(data.buffer, data.byteOffset, HEADER_BYTES);
  if (header.getUint32(0, true) !== MAGIC) throw new Error('not a road graph written by npm run import-roads');
  const version = header.getUint32(4, true);
  if (version !== FORMAT_VERSION) throw new Error(`road graph format ${version}; this service reads format ${FORMAT_VERSION} (import the roads again)`);
  const [n, u, d] = [header.getUint32(8, true), header.getUint32(12, true), header.getUint32(16, true)];
  const expected = HEADER_BYTES + 4 * (2 * n + 2 * (n + 1) + 4 * u + 4 * d);
  if (data.byteLength !== expected) throw new Error(`road graph of ${data.byteLength} bytes; its header says ${expected} (a truncated file?)`);
  let offset = data.byteOffset + HEADER_BYTES;
  const take = <T>(make: new (buffer: ArrayBufferLike, offset: number, length: number) => T, length: number): T => {
    const array = new make(data.buffer, offset, length);
    offset += 4 * length;
    return array;
  };
  const list = (m: number): EdgeList => ({
    first: take(Uint32Array, n + 1),
    other: take(Uint32Array, m),
    seconds: take(Float32Array, m),
    metres: take(Float32Array, m),
    middle: take(Int32Array, m),
  });
  const graph: RoadGraph = { lat: take(Int32Array, n), lon: take(Int32Array, n), up: list(u), down: list(d) };
  checkEdges(graph.up, n);
  checkEdges(graph.down, n);
  return graph;
}

export function readRoadGraph(file: string): RoadGraph {
  return decodeRoadGraph(readFileSync(file));
}

// A damaged file must fail at start, not send a search outside its arrays later.
function checkEdges(list: EdgeList, n: number): void {
  const m = list.other.length;
  if (list.first[0] !== 0 || list.first[n] !== m) throw new Error('road graph edge index does not cover its edges');
  for (let v = 0; v < n; v++) if (list.first[v] > list.first[v + 1]) throw new Error('road graph edge index out of order');
  for (let e = 0; e < m; e++) {
    if (list.other[e] >= n || list.middle[e] < -1 || list.middle[e] >= n) throw new Error('road graph edge leads to no node');
    if (!(list.seconds[e] >= 0) || !(list.metres[e] >= 0)) throw new Error('road graph edge with a negative or missing cost');
  }
}
