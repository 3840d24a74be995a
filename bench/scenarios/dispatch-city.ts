// A synthetic city for the dispatch benchmark, from fixed seeds: where drivers wait and riders book
// (a dense centre, four busy districts, a sparser ring around them), which vehicle each driver has
// and which ride type each rider books.
import type { OpenRequest } from '../../src/modules/rides/ride-dispatch.service.ts';
import { byVehicle, type VehicleType } from '../../src/modules/drivers/vehicles.ts';
import type { DriverLocationIndex, DriverPosition } from '../../src/platform/geo/driver-index.ts';
import type { Point } from '../../src/platform/geo/geo.ts';
import { MemoryDriverIndex } from '../../src/platform/geo/memory-driver-index.ts';
import type { RideType } from '../../src/platform/vocabulary.ts';

export { random } from '../lib/drivers.ts';

export const CENTRE: Point = { lat: 12.9716, lon: 77.5946 };
const KM_PER_DEGREE = 111.2;
/** Busy districts: bearing (degrees) and distance (km) from the centre. */
const DISTRICTS = [
  [20, 5],
  [110, 6],
  [200, 4.5],
  [290, 6.5],
] as const;
/** Nobody waits or books farther than this from the centre. */
export const CITY_RADIUS_KM = 12;

export const VEHICLE_MIX: ReadonlyArray<readonly [VehicleType, number]> = [['bike', 0.3], ['auto', 0.25], ['mini', 0.25], ['sedan', 0.15], ['suv', 0.05]];
export const RIDE_MIX: ReadonlyArray<readonly [RideType, number]> = [['bike', 0.25], ['auto', 0.25], ['mini', 0.3], ['sedan', 0.15], ['suv', 0.05]];

export function pick<T>(next: () => number, mix: ReadonlyArray<readonly [T, number]>): T {
  let u = next();
  for (const [value, weight] of mix) {
    if (u < weight) return value;
    u -= weight;
  }
  return mix[mix.length - 1][0];
}

/** A standard normal draw (Box–Muller). */
const normal = (next: () => number) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

export function offset(from: Point, bearingDegrees: number, km: number): Point {
  const bearing = (bearingDegrees * Math.PI) / 180;
  return {
    lat: from.lat + (km * Math.cos(bearing)) / KM_PER_DEGREE,
    lon: from.lon + (km * Math.sin(bearing)) / (KM_PER_DEGREE * Math.cos((from.lat * Math.PI) / 180)),
  };
}

/** Half of the city's activity within a few km of the centre, 30 % in the districts, the rest spread out. */
export function cityPoint(next: () => number): Point {
  const u = next();
  let km: number;
  let bearing: number;
  if (u < 0.5) {
    km = Math.abs(normal(next)) * 2;
    bearing = next() * 360;
  } else if (u < 0.8) {
    const [districtBearing, districtKm] = DISTRICTS[Math.floor(next() * DISTRICTS.length)];
    const district = offset(CENTRE, districtBearing, districtKm);
    const point = offset(district, next() * 360, Math.abs(normal(next)) * 1.2);
    return clamp(point);
  } else {
    km = CITY_RADIUS_KM * Math.sqrt(next());
    bearing = next() * 360;
  }
  return clamp(offset(CENTRE, bearing, km));
}

function clamp(point: Point): Point {
  const northKm = (point.lat - CENTRE.lat) * KM_PER_DEGREE;
  const eastKm = (point.lon - CENTRE.lon) * KM_PER_DEGREE * Math.cos((CENTRE.lat * Math.PI) / 180);
  const km = Math.hypot(northKm, eastKm);
  return km <= CITY_RADIUS_KM ? point : offset(CENTRE, (Math.atan2(eastKm, northKm) * 180) / Math.PI, CITY_RADIUS_KM);
}

/** Where a trip from `pickup` ends: 1.5 km plus an exponential share (mean 4 km), inside the city. */
export const dropFor = (pickup: Point, next: () => number): Point => clamp(offset(pickup, next() * 360, 1.5 + -Math.log(1 - next()) * 4));

export interface CityDriver {
  id: number;
  vehicle: VehicleType;
  position: DriverPosition;
}

export function cityDrivers(count: number, next: () => number, now: number): CityDriver[] {
  return Array.from({ length: count }, (_, i) => {
    const id = i + 1;
    return { id, vehicle: pick(next, VEHICLE_MIX), position: { driverId: id, ...cityPoint(next), updatedAt: now } };
  });
}

/** An open request as the dispatcher reads it (the fields a round uses). */
export function cityRide(id: number, next: () => number, createdAt: number): OpenRequest & { drop: Point } {
  const pickup = cityPoint(next);
  return { id, riderId: id, rideType: pick(next, RIDE_MIX), fare: 0, pickup, pickupZone: null, searchingSince: createdAt, drop: dropFor(pickup, next) };
}

/** One in-process index per vehicle type, as the app builds them without Redis. */
export const memoryIndexes = (now: () => number): Record<VehicleType, DriverLocationIndex> => byVehicle(() => new MemoryDriverIndex(now));
