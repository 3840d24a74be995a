import { distanceKm, type Point } from './geo.ts';
import { CircleCells, cellOf } from './circle-cells.ts';
import { byDistance, nearestFirst, POSITION_TTL_MS, type DriverLocationIndex, type DriverPosition, type NearbyDriver, type PositionColumns } from './driver-index.ts';
import { IdTable } from './id-table.ts';

const SWEEP_INTERVAL_MS = 10_000;
// A search stops once no cell left can hold a driver nearer than the ones found; distances within a
// micrometre of the bound are not trusted to floating point, so such a search goes one ring further.
const BOUND_SLACK_KM = 1e-9;

const NONE = -1;

// One record per slot, every field of a driver side by side: a search follows a cell's list from
// slot to slot, and reads each one's link, time and place from one or two cache lines instead of
// one line in each of five arrays. Float64 fields by index in the Float64Array (record = F64 of
// them), Int32 fields by index in the Int32Array over the same bytes (record = I32 of them).
const F64 = 7;
const I32 = F64 * 2;
const UPDATED_AT = 0;
const LAT = 1;
const LON = 2;
const DRIVER_ID = 3;
const CELL_NEXT = 8;
const CELL_PREV = 9;
const CELL = 10;
const NEWER = 11;
const OLDER = 12;

/**
 * Everything is stored by slot in typed arrays, outside the JS heap: the position and report time,
 * the grid cell, and two intrusive lists through the slots, one per cell (for searching) and one
 * in report order (for dropping stale drivers oldest first). A slot is one 56-byte record; a
 * million drivers take about 80 MB with the id table and give the garbage collector next to nothing to walk.
 */
export class MemoryDriverIndex implements DriverLocationIndex {
  readonly #slotOf = new IdTable();
  /** First slot of each non-empty cell. */
  readonly #cellHead = new Map<number, number>();
  readonly #free: number[] = [];
  #capacity = 0;
  #used = 0;
  #f = new Float64Array(0);
  #i = new Int32Array(0);
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
      this.#f[slot * F64 + DRIVER_ID] = driverId;
      this.#slotOf.set(driverId, slot);
      this.#joinCell(slot, cell);
    } else {
      if (this.#f[slot * F64 + UPDATED_AT] > updatedAt) return;
      this.#leaveAgeList(slot);
      if (this.#i[slot * I32 + CELL] !== cell) {
        this.#leaveCell(slot);
        this.#joinCell(slot, cell);
      }
    }
    const at = slot * F64;
    this.#f[at + LAT] = lat;
    this.#f[at + LON] = lon;
    this.#f[at + UPDATED_AT] = updatedAt;
    this.#joinAgeList(slot);
  }

  async remove(driverId: number): Promise<void> {
    const slot = this.#slotOf.get(driverId);
    if (slot !== NONE) this.#drop(slot);
  }

  async get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    const slot = this.#slotOf.get(driverId);
    if (slot === NONE || this.#f[slot * F64 + UPDATED_AT] <= now - POSITION_TTL_MS) return undefined;
    return this.#position(slot);
  }

  async nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]> {
    // No driver at all of this vehicle (an estimate asks every type's index for the nearest): nothing to walk the circle's cells for.
    if (this.#newest === NONE) return [];
    const freshAfter = now - POSITION_TTL_MS;
    const [f, i] = [this.#f, this.#i];
    const circle = this.#circle;
    circle.reset(center, radiusKm);
    const nearest = new Nearest(limit);
    for (let ring = 0; ; ring++) {
      const count = circle.ring(ring);
      if (count < 0) break;
      this.#visitedCells += count;
      for (let k = 0; k < count; k++) {
        for (let slot = this.#cellHead.get(circle.cells[k]) ?? NONE; slot !== NONE; slot = i[slot * I32 + CELL_NEXT]) {
          const at = slot * F64;
          if (f[at + UPDATED_AT] <= freshAfter) continue;
          const km = distanceKm(center.lat, center.lon, f[at + LAT], f[at + LON]);
          if (km <= radiusKm) nearest.offer(f[at + DRIVER_ID], km, f[at + LAT], f[at + LON]);
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
    for (let slot = this.#newest; slot !== NONE && this.#f[slot * F64 + UPDATED_AT] > freshAfter; slot = this.#i[slot * I32 + OLDER]) {
      found.push(this.#position(slot));
    }
    return found;
  }

  async freshColumns(now: number): Promise<PositionColumns> {
    const freshAfter = now - POSITION_TTL_MS;
    const [f, i] = [this.#f, this.#i];
    let count = 0;
    for (let slot = this.#newest; slot !== NONE && f[slot * F64 + UPDATED_AT] > freshAfter; slot = i[slot * I32 + OLDER]) count++;
    const columns = { driverIds: new Float64Array(count), lats: new Float64Array(count), lons: new Float64Array(count) };
    let k = 0;
    for (let slot = this.#newest; k < count; slot = i[slot * I32 + OLDER], k++) {
      const at = slot * F64;
      columns.driverIds[k] = f[at + DRIVER_ID];
      columns.lats[k] = f[at + LAT];
      columns.lons[k] = f[at + LON];
    }
    return columns;
  }

  /**
   * Drops positions that have gone stale, oldest first; cost is the number dropped. Report order is
   * time order as long as reports carry the clock's current time (reads check the age anyway).
   */
  sweep(now: number): void {
    const freshAfter = now - POSITION_TTL_MS;
    while (this.#oldest !== NONE && this.#f[this.#oldest * F64 + UPDATED_AT] <= freshAfter) this.#drop(this.#oldest);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#slotOf.clear();
    this.#cellHead.clear();
    this.#free.length = 0;
    this.#used = 0;
    this.#oldest = this.#newest = NONE;
  }

  #position(slot: number): DriverPosition {
    const at = slot * F64;
    return { driverId: this.#f[at + DRIVER_ID], lat: this.#f[at + LAT], lon: this.#f[at + LON], updatedAt: this.#f[at + UPDATED_AT] };
  }

  #drop(slot: number): void {
    this.#slotOf.delete(this.#f[slot * F64 + DRIVER_ID]);
    this.#leaveCell(slot);
    this.#leaveAgeList(slot);
    this.#free.push(slot);
  }

  #joinCell(slot: number, cell: number): void {
    const i = this.#i;
    const head = this.#cellHead.get(cell) ?? NONE;
    i[slot * I32 + CELL] = cell;
    i[slot * I32 + CELL_PREV] = NONE;
    i[slot * I32 + CELL_NEXT] = head;
    if (head !== NONE) i[head * I32 + CELL_PREV] = slot;
    this.#cellHead.set(cell, slot);
  }

  #leaveCell(slot: number): void {
    const i = this.#i;
    const [prev, next] = [i[slot * I32 + CELL_PREV], i[slot * I32 + CELL_NEXT]];
    if (next !== NONE) i[next * I32 + CELL_PREV] = prev;
    if (prev !== NONE) i[prev * I32 + CELL_NEXT] = next;
    else if (next === NONE) this.#cellHead.delete(i[slot * I32 + CELL]);
    else this.#cellHead.set(i[slot * I32 + CELL], next);
  }

  #joinAgeList(slot: number): void {
    const i = this.#i;
    i[slot * I32 + OLDER] = this.#newest;
    i[slot * I32 + NEWER] = NONE;
    if (this.#newest !== NONE) i[this.#newest * I32 + NEWER] = slot;
    else this.#oldest = slot;
    this.#newest = slot;
  }

  #leaveAgeList(slot: number): void {
    const i = this.#i;
    const [older, newer] = [i[slot * I32 + OLDER], i[slot * I32 + NEWER]];
    if (older !== NONE) i[older * I32 + NEWER] = newer;
    else this.#oldest = newer;
    if (newer !== NONE) i[newer * I32 + OLDER] = older;
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
    const records = new Float64Array(capacity * F64);
    records.set(this.#f);
    this.#f = records;
    this.#i = new Int32Array(records.buffer);
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

  offer(driverId: number, km: number, lat: number, lon: number): void {
    const heap = this.drivers;
    if (heap.length < this.#limit) {
      heap.push({ driverId, lat, lon, distanceKm: km });
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
    heap[0] = { driverId, lat, lon, distanceKm: km };
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

