import type { PlainGraph } from './graph-builder.ts';
import { MinHeap } from './min-heap.ts';
import type { EdgeList, RoadGraph } from './road-graph.ts';

// Contraction hierarchy (Geisberger et al., 2008), built once at import. Nodes are taken out one by
// one, least important first; when a node goes, each fastest path through it between two remaining
// neighbours is kept as a shortcut edge, unless a "witness" path avoiding it is as fast. Its rank is
// the order it went in. A route search then only climbs in rank from both ends (route-search.ts)
// and settles hundreds of nodes instead of a city's worth: plain A* on a 200,000-node city took
// about 60 ms at p95 for trips across it; this answers in well under a millisecond.
//
// Importance is the edge difference (shortcuts added minus edges removed) plus the neighbours
// already taken out (which spreads the work evenly); it is recomputed lazily, when a node comes to
// the front of the queue.

/** A witness search gives up after settling this many nodes; then the shortcut is added (never wrong, only larger). */
const WITNESS_SETTLE_LIMIT = 60;

export function contract(plain: PlainGraph): { graph: RoadGraph; shortcuts: number } {
  const n = plain.lat.length;
  // Every edge ever made (roads, then shortcuts), and each remaining node's edges among remaining nodes.
  const from: number[] = [];
  const to: number[] = [];
  const seconds: number[] = [];
  const metres: number[] = [];
  const middle: number[] = [];
  const out: number[][] = Array.from({ length: n }, () => []);
  const into: number[][] = Array.from({ length: n }, () => []);
  let shortcuts = 0;

  /** One edge per ordered pair of nodes: a faster one replaces a slower one. */
  const addEdge = (u: number, x: number, time: number, length: number, via: number) => {
    for (const e of out[u]) {
      if (to[e] !== x) continue;
      if (time < seconds[e]) [seconds[e], metres[e], middle[e]] = [time, length, via];
      return;
    }
    const e = from.length;
    from.push(u);
    to.push(x);
    seconds.push(time);
    metres.push(length);
    middle.push(via);
    out[u].push(e);
    into[x].push(e);
    if (via >= 0) shortcuts++;
  };
  for (let u = 0; u < n; u++) {
    for (let e = plain.firstEdge[u]; e < plain.firstEdge[u + 1]; e++) addEdge(u, plain.target[e], plain.seconds[e], plain.metres[e], -1);
  }

  const distance = new Float64Array(n);
  const reached = new Uint32Array(n);
  const wanted = new Uint32Array(n);
  let search = 0;
  const heap = new MinHeap();
  /** Fastest times from `source` without passing `excluded`, as far as `limit` seconds or until the `targets` marked wanted are settled. */
  const witnesses = (source: number, excluded: number, limit: number, targets: number) => {
    heap.clear();
    reached[source] = search;
    distance[source] = 0;
    heap.push(source, 0);
    let [settled, left] = [0, targets];
    while (heap.size > 0 && heap.peekKey() <= limit && settled < WITNESS_SETTLE_LIMIT && left > 0) {
      const key = heap.peekKey();
      const v = heap.pop();
      if (key > distance[v]) continue;
      settled++;
      if (wanted[v] === search) left--;
      for (const e of out[v]) {
        const w = to[e];
        const time = key + seconds[e];
        if (w === excluded || (reached[w] === search && distance[w] <= time)) continue;
        reached[w] = search;
        distance[w] = time;
        heap.push(w, time);
      }
    }
  };

  /** The shortcuts taking `v` out needs: counted, or added too. */
  const shortcutsFor = (v: number, add: boolean): number => {
    const [ins, outs] = [into[v], out[v]];
    if (ins.length === 0 || outs.length === 0) return 0;
    let slowestOut = 0;
    for (const e of outs) slowestOut = Math.max(slowestOut, seconds[e]);
    let count = 0;
    for (const e1 of ins) {
      const u = from[e1];
      search++;
      let targets = 0;
      for (const e2 of outs) {
        if (to[e2] === u || wanted[to[e2]] === search) continue;
        wanted[to[e2]] = search;
        targets++;
      }
      witnesses(u, v, seconds[e1] + slowestOut, targets);
      for (const e2 of outs) {
        const x = to[e2];
        const through = seconds[e1] + seconds[e2];
        if (x === u || (reached[x] === search && distance[x] <= through)) continue;
        count++;
        if (add) addEdge(u, x, through, metres[e1] + metres[e2], v);
      }
    }
    return count;
  };

  const removed = new Int32Array(n); // neighbours already taken out
  const importance = (v: number) => shortcutsFor(v, false) - into[v].length - out[v].length + removed[v];
  const rank = new Int32Array(n);
  const queue = new MinHeap();
  for (let v = 0; v < n; v++) queue.push(v, importance(v));
  let next = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    const now = importance(v);
    if (now > queue.peekKey()) {
      queue.push(v, now);
      continue;
    }
    shortcutsFor(v, true);
    rank[v] = next++;
    for (const e of out[v]) {
      into[to[e]].splice(into[to[e]].indexOf(e), 1);
      removed[to[e]]++;
    }
    for (const e of into[v]) {
      out[from[e]].splice(out[from[e]].indexOf(e), 1);
      removed[from[e]]++;
    }
    out[v] = [];
    into[v] = [];
  }

  // Each edge is kept once, at its lower end: leaving it upwards, or reaching it from above.
  const upward = (e: number) => rank[from[e]] < rank[to[e]];
  const list = (keep: (e: number) => boolean, row: (e: number) => number, other: (e: number) => number): EdgeList => {
    const first = new Uint32Array(n + 1);
    let m = 0;
    for (let e = 0; e < from.length; e++) {
      if (!keep(e)) continue;
      first[row(e) + 1]++;
      m++;
    }
    for (let v = 0; v < n; v++) first[v + 1] += first[v];
    const slot = first.slice(0, n);
    const edges: EdgeList = { first, other: new Uint32Array(m), seconds: new Float32Array(m), metres: new Float32Array(m), middle: new Int32Array(m) };
    for (let e = 0; e < from.length; e++) {
      if (!keep(e)) continue;
      const i = slot[row(e)]++;
      [edges.other[i], edges.seconds[i], edges.metres[i], edges.middle[i]] = [other(e), seconds[e], metres[e], middle[e]];
    }
    return edges;
  };
  const up = list(upward, (e) => from[e], (e) => to[e]);
  const down = list((e) => !upward(e), (e) => to[e], (e) => from[e]);
  return { graph: { lat: plain.lat, lon: plain.lon, up, down }, shortcuts };
}
