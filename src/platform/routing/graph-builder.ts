import { COORDINATE_SCALE } from './road-graph.ts';

// Turns nodes and directed edges, added one by one (by the OpenStreetMap import or the benchmark's
// synthetic city), into a plain graph: compressed adjacency (CSR), and only the largest strongly
// connected part, so that every node can reach every other (a route between two snapped points
// always exists; islands and one-way dead ends of an extract's border are dropped). contraction.ts
// turns that into the graph the router searches.

type NumberArray = Int32Array | Uint32Array | Float64Array;

/** Roads only, by the node they leave. */
export interface PlainGraph {
  lat: Int32Array;
  lon: Int32Array;
  firstEdge: Uint32Array;
  target: Uint32Array;
  metres: Float64Array;
  seconds: Float64Array;
}

/** A typed array that grows as values are pushed. */
class Growing<A extends NumberArray> {
  readonly #make: (length: number) => A;
  #data: A;
  length = 0;

  constructor(make: (length: number) => A) {
    this.#make = make;
    this.#data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const bigger = this.#make(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.length++] = value;
  }

  at(index: number): number {
    return this.#data[index];
  }
}

export interface BuiltGraph {
  graph: PlainGraph;
  /** Nodes left out for not being in the largest strongly connected part. */
  droppedNodes: number;
}

export class GraphBuilder {
  readonly #lat = new Growing((n) => new Int32Array(n));
  readonly #lon = new Growing((n) => new Int32Array(n));
  readonly #from = new Growing((n) => new Uint32Array(n));
  readonly #to = new Growing((n) => new Uint32Array(n));
  readonly #metres = new Growing((n) => new Float64Array(n));
  readonly #seconds = new Growing((n) => new Float64Array(n));

  get nodes(): number {
    return this.#lat.length;
  }

  /** A node at a point in degrees; answers its number. */
  addNode(lat: number, lon: number): number {
    this.#lat.push(Math.round(lat * COORDINATE_SCALE));
    this.#lon.push(Math.round(lon * COORDINATE_SCALE));
    return this.#lat.length - 1;
  }

  /** A one-way edge; a two-way road is two edges. */
  addEdge(from: number, to: number, metres: number, speedKmh: number): void {
    if (from === to) return;
    this.#from.push(from);
    this.#to.push(to);
    this.#metres.push(metres);
    this.#seconds.push(metres / (speedKmh / 3.6));
  }

  build(): BuiltGraph {
    const n = this.nodes;
    const all = csr(n, this.#from, () => true);
    const keep = largestStronglyConnected(n, all.firstEdge, all.order.map((e) => this.#to.at(e)));
    // New numbers for the kept nodes, in their old order.
    const renumber = new Int32Array(n).fill(-1);
    let kept = 0;
    for (let v = 0; v < n; v++) if (keep[v]) renumber[v] = kept++;
    const lat = new Int32Array(kept);
    const lon = new Int32Array(kept);
    for (let v = 0; v < n; v++) {
      if (renumber[v] < 0) continue;
      lat[renumber[v]] = this.#lat.at(v);
      lon[renumber[v]] = this.#lon.at(v);
    }
    const inside = (e: number) => keep[this.#from.at(e)] === 1 && keep[this.#to.at(e)] === 1;
    const { firstEdge, order } = csr(kept, { length: this.#from.length, at: (e) => renumber[this.#from.at(e)] }, inside);
    const m = order.length;
    const target = new Uint32Array(m);
    const metres = new Float64Array(m);
    const seconds = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const e = order[i];
      target[i] = renumber[this.#to.at(e)];
      metres[i] = this.#metres.at(e);
      seconds[i] = this.#seconds.at(e);
    }
    return { graph: { lat, lon, firstEdge, target, metres, seconds }, droppedNodes: n - kept };
  }
}

interface Sequence {
  length: number;
  at(index: number): number;
}

/** Edges grouped by the node they leave (a counting sort): the CSR index and, per slot, the edge it holds. */
function csr(n: number, from: Sequence, include: (edge: number) => boolean): { firstEdge: Uint32Array; order: Uint32Array } {
  const firstEdge = new Uint32Array(n + 1);
  let m = 0;
  for (let e = 0; e < from.length; e++) {
    if (!include(e)) continue;
    firstEdge[from.at(e) + 1]++;
    m++;
  }
  for (let v = 0; v < n; v++) firstEdge[v + 1] += firstEdge[v];
  const next = firstEdge.slice(0, n);
  const order = new Uint32Array(m);
  for (let e = 0; e < from.length; e++) if (include(e)) order[next[from.at(e)]++] = e;
  return { firstEdge, order };
}

/** 1 for the nodes of the largest strongly connected component (Tarjan's algorithm, without recursion). */
export function largestStronglyConnected(n: number, firstEdge: Uint32Array, target: Uint32Array): Uint8Array {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Uint32Array(n);
  const component = new Int32Array(n);
  let stackSize = 0;
  let calls = 0;
  let counter = 0;
  let components = 0;
  let largest = -1;
  let largestSize = 0;
  const enter = (v: number) => {
    index[v] = low[v] = counter++;
    stack[stackSize++] = v;
    onStack[v] = 1;
    callNode[calls] = v;
    callEdge[calls++] = firstEdge[v];
  };
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1) continue;
    enter(start);
    while (calls > 0) {
      const v = callNode[calls - 1];
      const e = callEdge[calls - 1];
      if (e < firstEdge[v + 1]) {
        callEdge[calls - 1]++;
        const w = target[e];
        if (index[w] === -1) enter(w);
        else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      calls--;
      if (calls > 0) low[callNode[calls - 1]] = Math.min(low[callNode[calls - 1]], low[v]);
      if (low[v] !== index[v]) continue;
      // v is the root of a component: everything above it on the stack belongs to it.
      let size = 0;
      let w: number;
      do {
        w = stack[--stackSize];
        onStack[w] = 0;
        component[w] = components;
        size++;
      } while (w !== v);
      if (size > largestSize) {
        largestSize = size;
        largest = components;
      }
      components++;
    }
  }
  const keep = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (component[v] === largest) keep[v] = 1;
  return keep;
}
