import { Type, type Static } from 'typebox';
import type { Point } from './geo.ts';

/** A driver's position is forgotten after two minutes without an update. */
export const POSITION_TTL_MS = 120_000;

export interface DriverPosition extends Point {
  driverId: number;
  /** Epoch milliseconds of the report. */
  updatedAt: number;
}

/** A search result, as the index returns it and the API shows it (spec 2.7). */
export const NearbyDriver = Type.Object({
  driverId: Type.Integer(),
  lat: Type.Number(),
  lon: Type.Number(),
  distanceKm: Type.Number({ description: 'Kilometres from the queried point' }),
});
export type NearbyDriver = Static<typeof NearbyDriver>;

/** Positions field by field: driver `i` is at (lats[i], lons[i]); the arrays have one length. */
export interface PositionColumns {
  driverIds: Float64Array;
  lats: Float64Array;
  lons: Float64Array;
}

/** Columns of positions made one by one (an index that has no columns of its own). */
export function columnsOf(positions: ReadonlyArray<Pick<DriverPosition, 'driverId' | 'lat' | 'lon'>>): PositionColumns {
  const columns = { driverIds: new Float64Array(positions.length), lats: new Float64Array(positions.length), lons: new Float64Array(positions.length) };
  positions.forEach(({ driverId, lat, lon }, i) => {
    columns.driverIds[i] = driverId;
    columns.lats[i] = lat;
    columns.lons[i] = lon;
  });
  return columns;
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
  /** Every fresh position (for counts per zone; its cost follows the number of drivers indexed). */
  fresh(now: number): Promise<DriverPosition[]>;
  /** The same as columns, one typed array per field: a million drivers without a million objects (the supply sampler reads them every 30 s). */
  freshColumns(now: number): Promise<PositionColumns>;
  close(): Promise<void>;
}

export const byDistance = (a: NearbyDriver, b: NearbyDriver) => a.distanceKm - b.distanceKm || a.driverId - b.driverId;

/** The answer of every index: nearest first (ties by id), at most `limit`, distances to the metre. */
export function nearestFirst(found: NearbyDriver[], limit: number): NearbyDriver[] {
  found.sort(byDistance);
  return found.slice(0, limit).map((driver) => ({ ...driver, distanceKm: Math.round(driver.distanceKm * 1000) / 1000 }));
}
