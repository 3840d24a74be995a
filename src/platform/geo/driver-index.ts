import { EARTH_RADIUS_KM, haversineKm, type Point } from './geo.ts';

/** A driver's position is forgotten after two minutes without an update. */
export const POSITION_TTL_MS = 120_000;

export interface DriverPosition extends Point {
  driverId: number;
  /** Epoch milliseconds of the report. */
  updatedAt: number;
}

export interface NearbyDriver extends Point {
  driverId: number;
  distanceKm: number;
}

/**
 * Latest position per driver and radius search sorted by distance. In-process by default, Redis
 * when several instances share it. Reads ignore positions older than POSITION_TTL_MS.
 */
export interface DriverLocationIndex {
  upsert(position: DriverPosition): Promise<void>;
  remove(driverId: number): Promise<void>;
  get(driverId: number, now: number): Promise<DriverPosition | undefined>;
  /** Fresh positions within the radius, nearest first, at most `limit`. */
  nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]>;
  close(): Promise<void>;
}

// Grid cells of 0.02° (about 2.2 km north-south). A search visits rings of cells around the
// centre and stops as soon as no unvisited cell can hold a closer driver than the ones found.
const CELL_DEGREES = 0.02;
const KM_PER_DEGREE_LAT = (EARTH_RADIUS_KM * Math.PI) / 180;
const COLUMNS = Math.round(360 / CELL_DEGREES);
const SWEEP_INTERVAL_MS = 10_000;

const rowOf = (lat: number) => Math.floor((lat + 90) / CELL_DEGREES);
const columnOf = (lon: number) => ((Math.floor((lon + 180) / CELL_DEGREES) % COLUMNS) + COLUMNS) % COLUMNS;
const cellKey = (row: number, column: number) => row * COLUMNS + column;

/**
 * Positions are stored by slot in typed arrays (about 80 bytes per driver instead of an object
 * each), and each grid cell lists its slots. A million drivers fit in well under 100 MB.
 */
export class MemoryDriverIndex implements DriverLocationIndex {
  // driverId → slot. Insertion order is update order (an update deletes and re-adds), so the oldest come first.
  readonly #slots = new Map<number, number>();
  readonly #cells = new Map<number, number[]>();
  readonly #free: number[] = [];
  #capacity = 1024;
  #used = 0;
  #driverId = new Float64Array(this.#capacity);
  #lat = new Float64Array(this.#capacity);
  #lon = new Float64Array(this.#capacity);
  #updatedAt = new Float64Array(this.#capacity);
  #cell = new Int32Array(this.#capacity);
  /** Where the slot sits in its cell's list, so it can leave in constant time. */
  #positionInCell = new Int32Array(this.#capacity);
  readonly #sweeper: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#sweeper = setInterval(() => this.sweep(this.#now()), SWEEP_INTERVAL_MS).unref();
  }

  get size(): number {
    return this.#slots.size;
  }

  async upsert(position: DriverPosition): Promise<void> {
    this.upsertNow(position);
  }

  /** The synchronous core of upsert, for bulk loading. */
  upsertNow({ driverId, lat, lon, updatedAt }: DriverPosition): void {
    const cell = cellKey(rowOf(lat), columnOf(lon));
    let slot = this.#slots.get(driverId);
    if (slot === undefined) {
      slot = this.#allocate();
      this.#driverId[slot] = driverId;
      this.#join(slot, cell);
    } else {
      if (this.#updatedAt[slot] > updatedAt) return;
      this.#slots.delete(driverId);
      if (this.#cell[slot] !== cell) {
        this.#leave(slot);
        this.#join(slot, cell);
      }
    }
    this.#lat[slot] = lat;
    this.#lon[slot] = lon;
    this.#updatedAt[slot] = updatedAt;
    this.#slots.set(driverId, slot);
  }

  async remove(driverId: number): Promise<void> {
    this.#drop(driverId);
  }

  async get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    const slot = this.#slots.get(driverId);
    if (slot === undefined || this.#updatedAt[slot] <= now - POSITION_TTL_MS) return undefined;
    return { driverId, lat: this.#lat[slot], lon: this.#lon[slot], updatedAt: this.#updatedAt[slot] };
  }

  async nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]> {
    const freshAfter = now - POSITION_TTL_MS;
    const centerRow = rowOf(center.lat);
    const centerColumn = columnOf(center.lon);
    const cellKmLat = CELL_DEGREES * KM_PER_DEGREE_LAT;
    const rowRings = Math.ceil(radiusKm / cellKmLat);
    // Longitude cells shrink towards the poles: the latitude of the circle farthest from the equator
    // decides how many columns the circle can span; a circle over a pole spans them all.
    const farthestLat = Math.abs(center.lat) + radiusKm / KM_PER_DEGREE_LAT;
    const cosFarthest = farthestLat >= 90 ? 0 : Math.cos((farthestLat * Math.PI) / 180);
    const halfTurn = COLUMNS / 2;
    const columnRings = cosFarthest === 0 ? halfTurn : Math.min(halfTurn, Math.ceil(radiusKm / (cellKmLat * cosFarthest)));
    const maxRing = Math.max(rowRings, columnRings);
    // The closest any point `ring` whole cells away can be, east-west or north-south (great circle).
    const reachKm = (ring: number) => {
      const northSouth = ring * cellKmLat;
      const halfAngle = (ring * CELL_DEGREES * Math.PI) / 360;
      const eastWest = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, cosFarthest * Math.sin(Math.min(halfAngle, Math.PI / 2))));
      return Math.min(northSouth, eastWest);
    };

    const found: NearbyDriver[] = [];
    const consider = (rowOffset: number, columnOffset: number) => {
      const column = (centerColumn + columnOffset + COLUMNS) % COLUMNS;
      const slots = this.#cells.get(cellKey(centerRow + rowOffset, column));
      if (!slots) return;
      for (const slot of slots) {
        if (this.#updatedAt[slot] <= freshAfter) continue;
        const position = { lat: this.#lat[slot], lon: this.#lon[slot] };
        const distanceKm = haversineKm(center, position);
        if (distanceKm <= radiusKm) found.push({ driverId: this.#driverId[slot], ...position, distanceKm });
      }
    };

    // Ring r is the square outline of cells r steps from the centre cell. Half a turn east and
    // half a turn west are the same column, visited once.
    for (let ring = 0; ring <= maxRing; ring++) {
      const columns = Math.min(ring, columnRings);
      const lastColumn = columns === halfTurn ? columns - 1 : columns;
      for (let dr = -Math.min(ring, rowRings); dr <= Math.min(ring, rowRings); dr++) {
        if (Math.abs(dr) === ring) {
          for (let dc = -columns; dc <= lastColumn; dc++) consider(dr, dc);
        } else if (ring <= columnRings) {
          consider(dr, -ring);
          if (ring !== halfTurn) consider(dr, ring);
        }
      }
      // Every cell of a later ring lies at least `ring` whole cells from the centre cell.
      if (found.length >= limit) {
        found.sort(byDistance);
        if (found[limit - 1].distanceKm <= reachKm(ring)) break;
      }
    }
    return nearestFirst(found, limit);
  }

  /**
   * Drops positions that have gone stale; cost is the number dropped. Entries are in arrival order,
   * which is time order as long as reports carry the clock's current time (reads check the age anyway).
   */
  sweep(now: number): void {
    const freshAfter = now - POSITION_TTL_MS;
    for (const [driverId, slot] of this.#slots) {
      if (this.#updatedAt[slot] > freshAfter) break;
      this.#drop(driverId);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#slots.clear();
    this.#cells.clear();
  }

  #drop(driverId: number): void {
    const slot = this.#slots.get(driverId);
    if (slot === undefined) return;
    this.#slots.delete(driverId);
    this.#leave(slot);
    this.#free.push(slot);
  }

  #join(slot: number, cell: number): void {
    let slots = this.#cells.get(cell);
    if (!slots) this.#cells.set(cell, (slots = []));
    this.#cell[slot] = cell;
    this.#positionInCell[slot] = slots.length;
    slots.push(slot);
  }

  /** Swaps the cell's last slot into this one's place. */
  #leave(slot: number): void {
    const cell = this.#cell[slot];
    const slots = this.#cells.get(cell)!;
    const last = slots.pop()!;
    if (last !== slot) {
      const position = this.#positionInCell[slot];
      slots[position] = last;
      this.#positionInCell[last] = position;
    }
    if (slots.length === 0) this.#cells.delete(cell);
  }

  #allocate(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#used === this.#capacity) this.#grow();
    return this.#used++;
  }

  #grow(): void {
    this.#capacity *= 2;
    const grown = <T extends Float64Array | Int32Array>(old: T): T => {
      const next = new (old.constructor as new (length: number) => T)(this.#capacity);
      next.set(old);
      return next;
    };
    this.#driverId = grown(this.#driverId);
    this.#lat = grown(this.#lat);
    this.#lon = grown(this.#lon);
    this.#updatedAt = grown(this.#updatedAt);
    this.#cell = grown(this.#cell);
    this.#positionInCell = grown(this.#positionInCell);
  }
}

const byDistance = (a: NearbyDriver, b: NearbyDriver) => a.distanceKm - b.distanceKm || a.driverId - b.driverId;

/** The answer of every index: nearest first (ties by id), at most `limit`, distances to the metre. */
export function nearestFirst(found: NearbyDriver[], limit: number): NearbyDriver[] {
  found.sort(byDistance);
  return found.slice(0, limit).map((driver) => ({ ...driver, distanceKm: Math.round(driver.distanceKm * 1000) / 1000 }));
}
