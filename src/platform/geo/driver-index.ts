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

interface Entry extends DriverPosition {
  cell: number;
}

export class MemoryDriverIndex implements DriverLocationIndex {
  // Insertion order is update order (an update deletes and re-adds), so the oldest come first.
  readonly #drivers = new Map<number, Entry>();
  readonly #cells = new Map<number, Set<Entry>>();
  readonly #sweeper: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#sweeper = setInterval(() => this.sweep(this.#now()), SWEEP_INTERVAL_MS).unref();
  }

  get size(): number {
    return this.#drivers.size;
  }

  async upsert(position: DriverPosition): Promise<void> {
    this.upsertNow(position);
  }

  /** The synchronous core of upsert, for bulk loading. */
  upsertNow({ driverId, lat, lon, updatedAt }: DriverPosition): void {
    const previous = this.#drivers.get(driverId);
    if (previous && previous.updatedAt > updatedAt) return;
    const entry: Entry = { driverId, lat, lon, updatedAt, cell: cellKey(rowOf(lat), columnOf(lon)) };
    if (previous) this.#detach(previous);
    this.#drivers.set(driverId, entry);
    let members = this.#cells.get(entry.cell);
    if (!members) this.#cells.set(entry.cell, (members = new Set()));
    members.add(entry);
  }

  async remove(driverId: number): Promise<void> {
    const entry = this.#drivers.get(driverId);
    if (entry) this.#detach(entry);
  }

  async get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    const entry = this.#drivers.get(driverId);
    if (!entry || entry.updatedAt <= now - POSITION_TTL_MS) return undefined;
    return { driverId, lat: entry.lat, lon: entry.lon, updatedAt: entry.updatedAt };
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
      const members = this.#cells.get(cellKey(centerRow + rowOffset, column));
      if (!members) return;
      for (const entry of members) {
        if (entry.updatedAt <= freshAfter) continue;
        const distanceKm = haversineKm(center, entry);
        if (distanceKm <= radiusKm) found.push({ driverId: entry.driverId, lat: entry.lat, lon: entry.lon, distanceKm });
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
    for (const entry of this.#drivers.values()) {
      if (entry.updatedAt > freshAfter) break;
      this.#detach(entry);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#drivers.clear();
    this.#cells.clear();
  }

  #detach(entry: Entry): void {
    this.#drivers.delete(entry.driverId);
    const members = this.#cells.get(entry.cell);
    members?.delete(entry);
    if (members?.size === 0) this.#cells.delete(entry.cell);
  }
}

const byDistance = (a: NearbyDriver, b: NearbyDriver) => a.distanceKm - b.distanceKm || a.driverId - b.driverId;

/** The answer of every index: nearest first (ties by id), at most `limit`, distances to the metre. */
export function nearestFirst(found: NearbyDriver[], limit: number): NearbyDriver[] {
  found.sort(byDistance);
  return found.slice(0, limit).map((driver) => ({ ...driver, distanceKm: Math.round(driver.distanceKm * 1000) / 1000 }));
}
