import { distanceKm, type Point } from './geo.ts';
import { CircleCells, cellOf } from './circle-cells.ts';
import { byDistance, nearestFirst, POSITION_TTL_MS, type DriverLocationIndex, type DriverPosition, type NearbyDriver } from './driver-index.ts';
import { IdTable } from './id-table.ts';

const SWEEP_INTERVAL_MS = 10_000;
// A search stops once no cell left can hold a driver nearer than the ones found; distances within a
// micrometre of the bound are not trusted to floating point, so such a search goes one ring further.
const BOUND_SLACK_KM = 1e-9;

const NONE = -1;

/**
 * Everything is stored by slot in typed arrays, outside the JS heap: the position and report time,
 * the grid cell, and two intrusive lists through the slots, one per cell (for searching) and one
 * in report order (for dropping stale drivers oldest first). A million drivers take about 110 MB
 * and give the garbage collector next to nothing to walk.
 */
export class MemoryDriverIndex implements DriverLocationIndex {
  readonly #slotOf = new IdTable();
  /** First slot of each non-empty cell. */
  readonly #cellHead = new Map<number, number>();
  readonly #free: number[] = [];
  #capacity = 0;
  #used = 0;
  #driverId = new Float64Array(0);
  #lat = new Float64Array(0);
  #lon = new Float64Array(0);
  #updatedAt = new Float64Array(0);
  #cell = new Int32Array(0);
  #cellNext = new Int32Array(0);
  #cellPrev = new Int32Array(0);
  #newer = new Int32Array(0);
  #older = new Int32Array(0);
  #oldest = NONE;
  #newest = NONE;
  readonly #sweeper: NodeJS.Timeout;
  readonly #now: () => number;
  // Reused by every search: a search runs from start to end without yielding.
  readonly #circle = new CircleCells();
  #visitedCells = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#grow(1024);
    this.#sweeper = setInterval(() => this.sweep(this.#now()), SWEEP_INTERVAL_MS).unref();
  }

  get size(): number {
    return this.#slotOf.size;
  }

  /** Cells looked up by every search so far: the work of a search, which tests hold to the area searched. */
  get visitedCells(): number {
    return this.#visitedCells;
  }

  async upsert(position: DriverPosition): Promise<void> {
    this.upsertNow(position);
  }

  /** The synchronous core of upsert, for bulk loading. */
  upsertNow({ driverId, lat, lon, updatedAt }: DriverPosition): void {
    const cell = cellOf(lat, lon);
    let slot = this.#slotOf.get(driverId);
    if (slot === NONE) {
      slot = this.#allocate();
      this.#driverId[slot] = driverId;
      this.#slotOf.set(driverId, slot);
      this.#joinCell(slot, cell);
    } else {
      if (this.#updatedAt[slot] > updatedAt) return;
      this.#leaveAgeList(slot);
      if (this.#cell[slot] !== cell) {
        this.#leaveCell(slot);
        this.#joinCell(slot, cell);
      }
    }
    this.#lat[slot] = lat;
    this.#lon[slot] = lon;
    this.#updatedAt[slot] = updatedAt;
    this.#joinAgeList(slot);
  }

  async remove(driverId: number): Promise<void> {
    const slot = this.#slotOf.get(driverId);
    if (slot !== NONE) this.#drop(slot);
  }

  async get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    const slot = this.#slotOf.get(driverId);
    if (slot === NONE || this.#updatedAt[slot] <= now - POSITION_TTL_MS) return undefined;
    return { driverId, lat: this.#lat[slot], lon: this.#lon[slot], updatedAt: this.#updatedAt[slot] };
  }

  async nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]> {
    const freshAfter = now - POSITION_TTL_MS;
    const circle = this.#circle;
    circle.reset(center, radiusKm);
    const nearest = new Nearest(limit);
    for (let ring = 0; ; ring++) {
      const count = circle.ring(ring);
      if (count < 0) break;
      this.#visitedCells += count;
      for (let k = 0; k < count; k++) {
        for (let slot = this.#cellHead.get(circle.cells[k]) ?? NONE; slot !== NONE; slot = this.#cellNext[slot]) {
          if (this.#updatedAt[slot] <= freshAfter) continue;
          const km = distanceKm(center.lat, center.lon, this.#lat[slot], this.#lon[slot]);
          if (km <= radiusKm) nearest.offer(this.#driverId[slot], km, this.#lat, this.#lon, slot);
        }
      }
      if (nearest.full && circle.fartherBeyond(ring, nearest.farthestKm + BOUND_SLACK_KM)) break;
    }
    return nearestFirst(nearest.drivers, limit);
  }

  async fresh(now: number): Promise<DriverPosition[]> {
    const freshAfter = now - POSITION_TTL_MS;
    const found: DriverPosition[] = [];
    // Newest first along the report-order list, until the first stale one.
    for (let slot = this.#newest; slot !== NONE && this.#updatedAt[slot] > freshAfter; slot = this.#older[slot]) {
      found.push({ driverId: this.#driverId[slot], lat: this.#lat[slot], lon: this.#lon[slot], updatedAt: this.#updatedAt[slot] });
    }
    return found;
  }

  /**
   * Drops positions that have gone stale, oldest first; cost is the number dropped. Report order is
   * time order as long as reports carry the clock's current time (reads check the age anyway).
   */
  sweep(now: number): void {
    const freshAfter = now - POSITION_TTL_MS;
    while (this.#oldest !== NONE && this.#updatedAt[this.#oldest] <= freshAfter) this.#drop(this.#oldest);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#slotOf.clear();
    this.#cellHead.clear();
    this.#free.length = 0;
    this.#used = 0;
    this.#oldest = this.#newest = NONE;
  }

  #drop(slot: number): void {
    this.#slotOf.delete(this.#driverId[slot]);
    this.#leaveCell(slot);
    this.#leaveAgeList(slot);
    this.#free.push(slot);
  }

  #joinCell(slot: number, cell: number): void {
    const head = this.#cellHead.get(cell) ?? NONE;
    this.#cell[slot] = cell;
    this.#cellPrev[slot] = NONE;
    this.#cellNext[slot] = head;
    if (head !== NONE) this.#cellPrev[head] = slot;
    this.#cellHead.set(cell, slot);
  }

  #leaveCell(slot: number): void {
    const [prev, next] = [this.#cellPrev[slot], this.#cellNext[slot]];
    if (next !== NONE) this.#cellPrev[next] = prev;
    if (prev !== NONE) this.#cellNext[prev] = next;
    else if (next === NONE) this.#cellHead.delete(this.#cell[slot]);
    else this.#cellHead.set(this.#cell[slot], next);
  }

  #joinAgeList(slot: number): void {
    this.#older[slot] = this.#newest;
    this.#newer[slot] = NONE;
    if (this.#newest !== NONE) this.#newer[this.#newest] = slot;
    else this.#oldest = slot;
    this.#newest = slot;
  }

  #leaveAgeList(slot: number): void {
    const [older, newer] = [this.#older[slot], this.#newer[slot]];
    if (older !== NONE) this.#newer[older] = newer;
    else this.#oldest = newer;
    if (newer !== NONE) this.#older[newer] = older;
    else this.#newest = older;
  }

  #allocate(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#used === this.#capacity) this.#grow(this.#capacity * 2);
    return this.#used++;
  }

  #grow(capacity: number): void {
    this.#capacity = capacity;
    const grown = <T extends Float64Array | Int32Array>(old: T): T => {
      const next = new (old.constructor as new (length: number) => T)(capacity);
      next.set(old);
      return next;
    };
    this.#driverId = grown(this.#driverId);
    this.#lat = grown(this.#lat);
    this.#lon = grown(this.#lon);
    this.#updatedAt = grown(this.#updatedAt);
    this.#cell = grown(this.#cell);
    this.#cellNext = grown(this.#cellNext);
    this.#cellPrev = grown(this.#cellPrev);
    this.#newer = grown(this.#newer);
    this.#older = grown(this.#older);
  }
}

/** The best `limit` drivers seen so far (nearest, then lowest id), kept as a heap with the worst of them on top. */
class Nearest {
  readonly drivers: NearbyDriver[] = [];
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get full(): boolean {
    return this.drivers.length >= this.#limit;
  }

  get farthestKm(): number {
    return this.drivers[0].distanceKm;
  }

  offer(driverId: number, km: number, lat: Float64Array, lon: Float64Array, slot: number): void {
    const heap = this.drivers;
    if (heap.length < this.#limit) {
      heap.push({ driverId, lat: lat[slot], lon: lon[slot], distanceKm: km });
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (byDistance(heap[i], heap[parent]) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
      return;
    }
    const top = heap[0];
    if (km > top.distanceKm || (km === top.distanceKm && driverId > top.driverId)) return;
    heap[0] = { driverId, lat: lat[slot], lon: lon[slot], distanceKm: km };
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && byDistance(heap[left], heap[worst]) > 0) worst = left;
      if (right < heap.length && byDistance(heap[right], heap[worst]) > 0) worst = right;
      if (worst === i) break;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  }
}

