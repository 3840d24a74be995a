// The assignment of a batched dispatch round: which driver each open ride is offered to, so that
// as many rides as possible get a driver and, among such choices, the total pickup cost is least.
//
// Successive shortest augmenting paths with Dijkstra and dual potentials (the primal-dual method
// for the rectangular linear assignment problem): R. Burkard, M. Dell'Amico, S. Martello,
// "Assignment Problems", SIAM 2012, section 4.4; D. F. Crouse, "On implementing 2D rectangular
// assignment algorithms", IEEE Trans. Aerospace and Electronic Systems 52(4), 2016. Each ride is
// added in turn along the cheapest alternating path to a free driver; reduced costs stay
// non-negative, so the matching stays the cheapest one of its size. Every ride may also stay
// unmatched at a cost larger than any real matching's (a private "no driver" column), so the
// result has as many rides matched as possible and, among those, the least total cost. The graph is sparse (each ride
// only considers its nearest drivers) and a path search stops at the first free driver it
// reaches, so a round over thousands of rides costs milliseconds. Costs are integers (metres or
// seconds), so the arithmetic is exact.

/** A driver a ride may be offered to, and what it costs to send them (an integer). */
export interface Edge {
  ride: number;
  driver: number;
  cost: number;
}

export interface Pair {
  ride: number;
  driver: number;
}

const NONE = -1;

/**
 * Rides are 0…rideCount−1; drivers are any integers. Returns one pair per matched ride, each
 * driver used at most once; rides without a reachable free driver stay out.
 */
export function assign(rideCount: number, edges: readonly Edge[]): Pair[] {
  // Dense numbering of the drivers, and each ride's edges in one flat list (row offsets into it),
  // ending with the ride's own "no driver" column, dearer than every real edge together.
  const driverIndex = new Map<number, number>();
  const driverIds: number[] = [];
  const start = new Int32Array(rideCount + 1);
  let total = 1;
  for (const { ride, cost } of edges) {
    if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`edge cost must be a non-negative integer, got ${cost}`);
    start[ride + 1]++;
    total += cost;
  }
  for (let ride = 0; ride < rideCount; ride++) start[ride + 1] += start[ride] + 1;
  const edgeColumn = new Int32Array(edges.length + rideCount);
  const edgeCost = new Float64Array(edges.length + rideCount);
  const filled = start.slice(0, rideCount);
  for (const { ride, driver, cost } of edges) {
    let column = driverIndex.get(driver);
    if (column === undefined) {
      column = driverIds.length;
      driverIndex.set(driver, column);
      driverIds.push(driver);
    }
    edgeColumn[filled[ride]] = column;
    edgeCost[filled[ride]++] = cost;
  }
  const realColumns = driverIds.length;
  for (let ride = 0; ride < rideCount; ride++) {
    edgeColumn[filled[ride]] = realColumns + ride;
    edgeCost[filled[ride]] = total;
  }
  const columns = realColumns + rideCount;
  const rowOfColumn = new Int32Array(columns).fill(NONE);
  const columnOfRow = new Int32Array(rideCount).fill(NONE);
  const u = new Float64Array(rideCount); // row potentials
  const v = new Float64Array(columns); // column potentials
  const distance = new Float64Array(columns).fill(Infinity);
  const previousRow = new Int32Array(columns).fill(NONE);
  const finalised = new Uint8Array(columns);
  const touched: number[] = [];
  // Rows reached on the way, each through its matched column.
  const scannedRows: number[] = [];
  const scannedVia: number[] = [];
  const heap = new MinHeap();

  for (let source = 0; source < rideCount; source++) {
    // Dijkstra over alternating paths, in reduced costs, until the first free column.
    heap.clear();
    scannedRows.length = 0;
    scannedVia.length = 0;
    let sink = NONE;
    let sinkDistance = 0;
    let row = source;
    let rowDistance = 0;
    for (;;) {
      for (let e = start[row]; e < start[row + 1]; e++) {
        const column = edgeColumn[e];
        if (finalised[column]) continue;
        const candidate = rowDistance + edgeCost[e] - u[row] - v[column];
        if (candidate < distance[column]) {
          if (distance[column] === Infinity) touched.push(column);
          distance[column] = candidate;
          previousRow[column] = row;
          heap.push(column, candidate);
        }
      }
      let column = NONE;
      while (heap.size > 0) {
        const key = heap.topKey;
        const next = heap.pop();
        if (!finalised[next] && key === distance[next]) {
          column = next;
          break;
        }
      }
      if (column === NONE) break; // cannot happen: the ride's own "no driver" column is always free
      finalised[column] = 1;
      if (rowOfColumn[column] === NONE) {
        sink = column;
        sinkDistance = distance[column];
        break;
      }
      // A matched column leads on to its row at no extra cost (matched edges are tight).
      row = rowOfColumn[column];
      rowDistance = distance[column];
      scannedRows.push(row);
      scannedVia.push(column);
    }

    if (sink !== NONE) {
      // New potentials keep every reduced cost non-negative and the path's edges tight.
      u[source] += sinkDistance;
      for (let i = 0; i < scannedRows.length; i++) u[scannedRows[i]] += sinkDistance - distance[scannedVia[i]];
      for (const column of touched) if (finalised[column] && column !== sink) v[column] -= sinkDistance - distance[column];
      // Flip the matching along the path back from the sink.
      for (let column = sink; column !== NONE; ) {
        const owner = previousRow[column];
        const freed = columnOfRow[owner];
        columnOfRow[owner] = column;
        rowOfColumn[column] = owner;
        column = freed;
      }
    }
    for (const column of touched) {
      distance[column] = Infinity;
      previousRow[column] = NONE;
      finalised[column] = 0;
    }
    touched.length = 0;
  }

  const pairs: Pair[] = [];
  for (let ride = 0; ride < rideCount; ride++) if (columnOfRow[ride] < realColumns) pairs.push({ ride, driver: driverIds[columnOfRow[ride]] });
  return pairs;
}

/** A binary heap of (item, key) with lazy deletion: stale entries are skipped by the caller. */
class MinHeap {
  #items: number[] = [];
  #keys: number[] = [];

  get size(): number {
    return this.#items.length;
  }

  get topKey(): number {
    return this.#keys[0];
  }

  clear(): void {
    this.#items.length = 0;
    this.#keys.length = 0;
  }

  push(item: number, key: number): void {
    const items = this.#items;
    const keys = this.#keys;
    let i = items.length;
    items.push(item);
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      items[i] = items[parent];
      keys[i] = keys[parent];
      i = parent;
    }
    items[i] = item;
    keys[i] = key;
  }

  /** Removes and returns the item with the smallest key (read `topKey` first if needed). */
  pop(): number {
    const items = this.#items;
    const keys = this.#keys;
    const top = items[0];
    const lastItem = items.pop()!;
    const lastKey = keys.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && keys[right] < keys[left] ? right : left;
        if (keys[child] >= lastKey) break;
        items[i] = items[child];
        keys[i] = keys[child];
        i = child;
      }
      items[i] = lastItem;
      keys[i] = lastKey;
    }
    return top;
  }
}
