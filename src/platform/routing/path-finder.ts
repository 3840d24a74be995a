import { COORDINATE_SCALE, nodeCount, type RoadGraph } from './road-graph.ts';

// Fastest paths on a RoadGraph: A* between two nodes (the estimate of time left is the straight-line
// distance at the graph's fastest speed, which never overestimates), and Dijkstra from one node to
// many (a row of a table). The search state is allocated once per graph and reused: entries carry
// the number of the search that wrote them, so nothing is cleared between searches. Searches run
// synchronously to the end, so one finder serves every request of a process.

const METRES_PER_DEGREE = 111_195;

export interface PathCost {
  seconds: number;
  metres: number;
}

/** A binary min-heap of nodes by key; a node may be in it more than once (stale entries are skipped). */
class MinHeap {
  #keys = new Float64Array(1024);
  #nodes = new Uint32Array(1024);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(node: number, key: number): void {
    if (this.size === this.#keys.length) {
      const keys = new Float64Array(this.size * 2);
      const nodes = new Uint32Array(this.size * 2);
      keys.set(this.#keys);
      nodes.set(this.#nodes);
      [this.#keys, this.#nodes] = [keys, nodes];
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#keys[parent] <= key) break;
      this.#keys[i] = this.#keys[parent];
      this.#nodes[i] = this.#nodes[parent];
      i = parent;
    }
    this.#keys[i] = key;
    this.#nodes[i] = node;
  }

  /** Removes the node with the smallest key and answers it. */
  pop(): number {
    const top = this.#nodes[0];
    const key = this.#keys[--this.size];
    const node = this.#nodes[this.size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.#keys[child + 1] < this.#keys[child]) child++;
      if (this.#keys[child] >= key) break;
      this.#keys[i] = this.#keys[child];
      this.#nodes[i] = this.#nodes[child];
      i = child;
    }
    this.#keys[i] = key;
    this.#nodes[i] = node;
    return top;
  }

  get bytes(): number {
    return this.#keys.byteLength + this.#nodes.byteLength;
  }
}

export class PathFinder {
  readonly #graph: RoadGraph;
  readonly #seconds: Float64Array;
  readonly #metres: Float64Array;
  readonly #previous: Int32Array;
  /** The search that last reached a node (its seconds are valid) and that settled it (they are final). */
  readonly #reached: Uint32Array;
  readonly #settled: Uint32Array;
  readonly #heap = new MinHeap();
  #search = 0;
  // Straight-line metres per 1e-7 degree, east-west at the graph's highest latitude (the smallest),
  // and seconds per metre at the fastest speed, a hair under, so float rounding never overestimates.
  readonly #metresLat = METRES_PER_DEGREE / COORDINATE_SCALE;
  readonly #metresLon: number;
  readonly #secondsPerMetre: number;

  constructor(graph: RoadGraph) {
    const n = nodeCount(graph);
    this.#graph = graph;
    this.#seconds = new Float64Array(n);
    this.#metres = new Float64Array(n);
    this.#previous = new Int32Array(n);
    this.#reached = new Uint32Array(n);
    this.#settled = new Uint32Array(n);
    let widest = 0;
    for (let v = 0; v < n; v++) widest = Math.max(widest, Math.abs(graph.lat[v]));
    this.#metresLon = this.#metresLat * Math.cos(Math.min(89, widest / COORDINATE_SCALE) * (Math.PI / 180));
    this.#secondsPerMetre = (0.999 * 3.6) / graph.maxSpeedKmh;
  }

  /** Bytes of the search state (per node, plus the heap as it has grown). */
  get bytes(): number {
    return this.#seconds.byteLength + this.#metres.byteLength + this.#previous.byteLength + this.#reached.byteLength + this.#settled.byteLength + this.#heap.bytes;
  }

  /** The fastest path from `source` to `target` (A*), or undefined when there is none. */
  fastest(source: number, target: number): PathCost | undefined {
    const { lat, lon } = this.#graph;
    const targetLat = lat[target];
    const targetLon = lon[target];
    const estimate = (v: number) => {
      const dy = (lat[v] - targetLat) * this.#metresLat;
      const dx = (lon[v] - targetLon) * this.#metresLon;
      return Math.sqrt(dx * dx + dy * dy) * this.#secondsPerMetre;
    };
    const found = this.#run(source, estimate, (v) => v === target);
    return found ? this.#cost(target) : undefined;
  }

  /** Fastest paths from `source` to each of `targets` (Dijkstra, stopping once all are settled); undefined for one it cannot reach. */
  fromSource(source: number, targets: readonly number[]): Array<PathCost | undefined> {
    const wanted = new Set(targets);
    let left = wanted.size;
    if (left === 0) return [];
    this.#run(source, () => 0, (v) => wanted.has(v) && --left === 0);
    return targets.map((target) => (this.#settled[target] === this.#search ? this.#cost(target) : undefined));
  }

  /** The nodes of the path the last search found to `target`, from its source. */
  pathTo(target: number): number[] {
    const nodes: number[] = [];
    for (let v = target; v !== -1; v = this.#previous[v]) nodes.push(v);
    return nodes.reverse();
  }

  #cost(v: number): PathCost {
    return { seconds: this.#seconds[v], metres: this.#metres[v] };
  }

  /** Settles nodes in order of seconds + estimate until `done` says so; answers whether it did. */
  #run(source: number, estimate: (v: number) => number, done: (v: number) => boolean): boolean {
    const { firstEdge, target, seconds, lengthM } = this.#graph;
    const search = this.#nextSearch();
    const heap = this.#heap;
    heap.clear();
    this.#reached[source] = search;
    this.#seconds[source] = 0;
    this.#metres[source] = 0;
    this.#previous[source] = -1;
    heap.push(source, estimate(source));
    while (heap.size > 0) {
      const v = heap.pop();
      if (this.#settled[v] === search) continue;
      this.#settled[v] = search;
      if (done(v)) return true;
      const base = this.#seconds[v];
      for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) {
        const w = target[e];
        if (this.#settled[w] === search) continue;
        const time = base + seconds[e];
        if (this.#reached[w] === search && this.#seconds[w] <= time) continue;
        this.#reached[w] = search;
        this.#seconds[w] = time;
        this.#metres[w] = this.#metres[v] + lengthM[e];
        this.#previous[w] = v;
        heap.push(w, time + estimate(w));
      }
    }
    return false;
  }

  #nextSearch(): number {
    // After 2^32 - 1 searches the stamps wrap: start them again from clean arrays.
    if (this.#search === 0xffffffff) {
      this.#reached.fill(0);
      this.#settled.fill(0);
      this.#search = 0;
    }
    return ++this.#search;
  }
}
