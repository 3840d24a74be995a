import { MinHeap } from './min-heap.ts';
import { nodeCount, type EdgeList, type RoadGraph } from './road-graph.ts';

// Fastest paths on the contraction hierarchy (contraction.ts): a Dijkstra search with a binary heap
// climbs `up` edges from the source and another climbs `down` edges backwards from the target; the
// fastest path meets at its highest node. A node reached more slowly than a higher neighbour can
// explain is not expanded ("stall on demand"). A table runs one upward search per target, leaving
// its times in buckets at the nodes it settles, then one per source, which reads them.
// Search state is allocated once per graph and reused: entries carry the number of the search that
// wrote them, so nothing is cleared between searches. Searches run synchronously to the end, so one
// instance serves every request of a process.

export interface PathCost {
  seconds: number;
  metres: number;
}

/** One direction's search state. */
class Direction {
  readonly seconds: Float64Array;
  readonly metres: Float64Array;
  /** The node a node was reached from, and the edge (index in the direction's list). */
  readonly previous: Int32Array;
  readonly edge: Int32Array;
  readonly reached: Uint32Array;
  readonly settled: Uint32Array;
  readonly heap = new MinHeap();
  /** The list it climbs, and the opposite list (whose edges come down to a node: what stalls it). */
  readonly climb: EdgeList;
  readonly opposite: EdgeList;

  constructor(n: number, climb: EdgeList, opposite: EdgeList) {
    this.seconds = new Float64Array(n);
    this.metres = new Float64Array(n);
    this.previous = new Int32Array(n);
    this.edge = new Int32Array(n);
    this.reached = new Uint32Array(n);
    this.settled = new Uint32Array(n);
    this.climb = climb;
    this.opposite = opposite;
  }

  get bytes(): number {
    return [this.seconds, this.metres, this.previous, this.edge, this.reached, this.settled].reduce((sum, a) => sum + a.byteLength, 0) + this.heap.bytes;
  }

  start(node: number, search: number): void {
    this.heap.clear();
    this.reached[node] = search;
    this.seconds[node] = 0;
    this.metres[node] = 0;
    this.previous[node] = -1;
    this.heap.push(node, 0);
  }

  /** Settles the next node and answers it, or -1 when the node was stale or stalled (not expanded). */
  step(search: number): number {
    const v = this.heap.pop();
    if (this.settled[v] === search) return -1;
    this.settled[v] = search;
    const time = this.seconds[v];
    const { opposite, climb } = this;
    for (let e = opposite.first[v]; e < opposite.first[v + 1]; e++) {
      const w = opposite.other[e];
      if (this.reached[w] === search && this.seconds[w] + opposite.seconds[e] < time) return -1;
    }
    for (let e = climb.first[v]; e < climb.first[v + 1]; e++) {
      const w = climb.other[e];
      const next = time + climb.seconds[e];
      if (this.reached[w] === search && this.seconds[w] <= next) continue;
      this.reached[w] = search;
      this.seconds[w] = next;
      this.metres[w] = this.metres[v] + climb.metres[e];
      this.previous[w] = v;
      this.edge[w] = e;
      this.heap.push(w, next);
    }
    return v;
  }
}

export class RouteSearch {
  readonly #graph: RoadGraph;
  readonly #forward: Direction;
  readonly #backward: Direction;
  #search = 0;
  #meeting = -1;

  constructor(graph: RoadGraph) {
    const n = nodeCount(graph);
    this.#graph = graph;
    this.#forward = new Direction(n, graph.up, graph.down);
    this.#backward = new Direction(n, graph.down, graph.up);
  }

  /** Bytes of the search state. */
  get bytes(): number {
    return this.#forward.bytes + this.#backward.bytes;
  }

  /** The fastest path from `source` to `target`, or undefined when there is none. */
  fastest(source: number, target: number): PathCost | undefined {
    const search = this.#nextSearch();
    const [forward, backward] = [this.#forward, this.#backward];
    forward.start(source, search);
    backward.start(target, search);
    let best = Infinity;
    this.#meeting = -1;
    while (Math.min(forward.heap.peekKey(), backward.heap.peekKey()) < best) {
      const [side, other] = forward.heap.peekKey() <= backward.heap.peekKey() ? [forward, backward] : [backward, forward];
      const v = side.step(search);
      if (v < 0 || other.settled[v] !== search) continue;
      const time = side.seconds[v] + other.seconds[v];
      if (time < best) [best, this.#meeting] = [time, v];
    }
    if (this.#meeting < 0) return undefined;
    const m = this.#meeting;
    return { seconds: best, metres: forward.metres[m] + backward.metres[m] };
  }

  /** The road nodes of the path the last `fastest` found, source first (shortcuts unpacked). */
  lastPath(): number[] {
    const m = this.#meeting;
    if (m < 0) return [];
    const { up, down } = this.#graph;
    const climbs: Array<[number, number, number]> = [];
    for (let v = m; this.#forward.previous[v] !== -1; v = this.#forward.previous[v]) {
      const u = this.#forward.previous[v];
      climbs.push([u, v, up.middle[this.#forward.edge[v]]]);
    }
    const nodes = [climbs.length > 0 ? climbs[climbs.length - 1][0] : m];
    for (const [u, v, middle] of climbs.reverse()) this.#unpack(u, v, middle, nodes);
    for (let v = m; this.#backward.previous[v] !== -1; v = this.#backward.previous[v]) {
      const x = this.#backward.previous[v];
      this.#unpack(v, x, down.middle[this.#backward.edge[v]], nodes);
    }
    return nodes;
  }

  /** Fastest paths from each source (rows) to each target (columns); undefined where there is none. */
  table(sources: readonly number[], targets: readonly number[]): Array<Array<PathCost | undefined>> {
    const buckets = new Map<number, Array<{ target: number; seconds: number; metres: number }>>();
    targets.forEach((target, j) => {
      for (const v of this.#climbAll(this.#backward, target)) {
        const entry = { target: j, seconds: this.#backward.seconds[v], metres: this.#backward.metres[v] };
        const bucket = buckets.get(v);
        if (bucket) bucket.push(entry);
        else buckets.set(v, [entry]);
      }
    });
    return sources.map((source) => {
      const row: Array<PathCost | undefined> = targets.map(() => undefined);
      for (const v of this.#climbAll(this.#forward, source)) {
        for (const entry of buckets.get(v) ?? []) {
          const seconds = this.#forward.seconds[v] + entry.seconds;
          const known = row[entry.target];
          if (!known || seconds < known.seconds) row[entry.target] = { seconds, metres: this.#forward.metres[v] + entry.metres };
        }
      }
      return row;
    });
  }

  /** Every node one direction settles (and does not stall) from `node`, to the top. */
  #climbAll(side: Direction, node: number): number[] {
    const search = this.#nextSearch();
    side.start(node, search);
    const settled: number[] = [];
    while (side.heap.size > 0) {
      const v = side.step(search);
      if (v >= 0) settled.push(v);
    }
    return settled;
  }

  /** Appends the road nodes after `from` of the edge from → to (through `middle` when a shortcut). */
  #unpack(from: number, to: number, middle: number, nodes: number[]): void {
    const { up, down } = this.#graph;
    const pending: Array<[number, number, number]> = [[from, to, middle]];
    while (pending.length > 0) {
      const [a, b, m] = pending.pop()!;
      if (m < 0) {
        nodes.push(b);
        continue;
      }
      // m ranks below both ends: a → m reaches it from above (down list), m → b leaves it upwards.
      pending.push([m, b, middleOf(up, m, b)], [a, m, middleOf(down, m, a)]);
    }
  }

  #nextSearch(): number {
    // After 2^32 - 1 searches the stamps wrap: start them again from clean arrays.
    if (this.#search === 0xffffffff) {
      for (const side of [this.#forward, this.#backward]) {
        side.reached.fill(0);
        side.settled.fill(0);
      }
      this.#search = 0;
    }
    return ++this.#search;
  }
}

/** The middle node of the edge between `row` and `other` in a list (the fastest, if several). */
function middleOf(list: EdgeList, row: number, other: number): number {
  let best = -1;
  let seconds = Infinity;
  for (let e = list.first[row]; e < list.first[row + 1]; e++) {
    if (list.other[e] === other && list.seconds[e] < seconds) [best, seconds] = [e, list.seconds[e]];
  }
  if (best < 0) throw new Error(`road graph has a shortcut through ${row} without its edge to ${other}`);
  return list.middle[best];
}
