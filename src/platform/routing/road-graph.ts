import { readFileSync } from 'node:fs';

// A road graph as typed arrays, and its file: a 24-byte header, then the arrays one after another,
// each element 4 bytes, so loading is one read and views onto it (no parsing, no objects per node).
//
//   magic "RHRG" · format version · node count n · edge count m · fastest speed (km/h, float) · 0
//   lat[n], lon[n]       int32, 1e-7 degrees (OpenStreetMap's own precision, about a centimetre)
//   firstEdge[n + 1]     uint32: node v's edges are firstEdge[v] … firstEdge[v + 1] - 1 (CSR)
//   target[m]            uint32: where an edge leads
//   lengthM[m]           float32: its length in metres
//   seconds[m]           float32: the time to drive it
//
// Memory: 12 bytes a node and 12 bytes an edge (a city of 1 million nodes and 2.5 million edges
// takes about 42 MB), plus what the router builds at load (grid and search state, see graph-router.ts).

export interface RoadGraph {
  lat: Int32Array;
  lon: Int32Array;
  firstEdge: Uint32Array;
  target: Uint32Array;
  lengthM: Float32Array;
  seconds: Float32Array;
  /** The fastest edge's speed: the A* estimate of time left never overestimates with it. */
  maxSpeedKmh: number;
}

const MAGIC = 0x47524852; // "RHRG" read as a little-endian uint32
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;
/** Coordinates are stored in 1e-7 degrees. */
export const COORDINATE_SCALE = 1e7;

export const nodeCount = (graph: RoadGraph): number => graph.lat.length;
export const edgeCount = (graph: RoadGraph): number => graph.target.length;

/** Bytes the graph's arrays hold. */
export const graphBytes = (graph: RoadGraph): number =>
  [graph.lat, graph.lon, graph.firstEdge, graph.target, graph.lengthM, graph.seconds].reduce((sum, array) => sum + array.byteLength, 0);

export function encodeRoadGraph(graph: RoadGraph): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES + graphBytes(graph));
  const header = new DataView(bytes.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, FORMAT_VERSION, true);
  header.setUint32(8, nodeCount(graph), true);
  header.setUint32(12, edgeCount(graph), true);
  header.setFloat32(16, graph.maxSpeedKmh, true);
  let offset = HEADER_BYTES;
  for (const array of [graph.lat, graph.lon, graph.firstEdge, graph.target, graph.lengthM, graph.seconds]) {
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
  const n = header.getUint32(8, true);
  const m = header.getUint32(12, true);
  const expected = HEADER_BYTES + 4 * (3 * n + 1 + 3 * m);
  if (data.byteLength !== expected) throw new Error(`road graph of ${data.byteLength} bytes; its header says ${expected} (a truncated file?)`);
  let offset = data.byteOffset + HEADER_BYTES;
  const take = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, length: number): T => {
    const array = make(data.buffer, offset, length);
    offset += 4 * length;
    return array;
  };
  const graph: RoadGraph = {
    lat: take((b, o, l) => new Int32Array(b, o, l), n),
    lon: take((b, o, l) => new Int32Array(b, o, l), n),
    firstEdge: take((b, o, l) => new Uint32Array(b, o, l), n + 1),
    target: take((b, o, l) => new Uint32Array(b, o, l), m),
    lengthM: take((b, o, l) => new Float32Array(b, o, l), m),
    seconds: take((b, o, l) => new Float32Array(b, o, l), m),
    maxSpeedKmh: header.getFloat32(16, true),
  };
  checkStructure(graph);
  return graph;
}

export function readRoadGraph(file: string): RoadGraph {
  return decodeRoadGraph(readFileSync(file));
}

// A damaged file must fail at start, not send a search outside its arrays later.
function checkStructure(graph: RoadGraph): void {
  const n = nodeCount(graph);
  const m = edgeCount(graph);
  if (!(graph.maxSpeedKmh > 0)) throw new Error('road graph without a positive fastest speed');
  if (graph.firstEdge[0] !== 0 || graph.firstEdge[n] !== m) throw new Error('road graph edge index does not cover its edges');
  for (let v = 0; v < n; v++) if (graph.firstEdge[v] > graph.firstEdge[v + 1]) throw new Error('road graph edge index out of order');
  for (let e = 0; e < m; e++) {
    if (graph.target[e] >= n) throw new Error('road graph edge leads to no node');
    if (!(graph.seconds[e] >= 0) || !(graph.lengthM[e] >= 0)) throw new Error('road graph edge with a negative or missing cost');
  }
}
