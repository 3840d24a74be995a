// Driver positions for the nearby-search scenarios, generated from a fixed seed.
import type { DriverPosition } from '../../src/platform/geo/driver-index.ts';
import type { Point } from '../../src/platform/geo/geo.ts';

export const DRIVERS_PER_CITY = 5_000;
/** The 20 cities the queries go to; larger runs add other cities elsewhere, never more here. */
export const MEASURED_CITIES = 20;

export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** City centres: the first 20 in India (measured), the rest spread over inhabited latitudes. */
export function cities(count: number): Point[] {
  const india: Point[] = [
    [28.61, 77.21], [19.08, 72.88], [12.97, 77.59], [13.08, 80.27], [22.57, 88.36], [17.39, 78.49], [18.52, 73.86],
    [23.02, 72.57], [26.91, 75.79], [26.85, 80.95], [21.17, 72.83], [21.15, 79.09], [22.72, 75.86], [19.99, 73.79],
    [30.73, 76.78], [9.93, 76.27], [11.02, 76.96], [25.59, 85.14], [15.3, 74.12], [23.26, 77.41],
  ].map(([lat, lon]) => ({ lat, lon }));
  const next = random(42);
  const others = Array.from({ length: Math.max(0, count - india.length) }, () => ({ lat: -45 + next() * 100, lon: -180 + next() * 360 }));
  return [...india, ...others].slice(0, count);
}

/** `count` drivers, 5,000 per city within about 15 km of its centre, all reported `now`. */
export function* driverPositions(count: number, now: number): Generator<DriverPosition> {
  const next = random(7);
  const centres = cities(Math.ceil(count / DRIVERS_PER_CITY));
  for (let driverId = 1; driverId <= count; driverId++) {
    const centre = centres[Math.floor((driverId - 1) / DRIVERS_PER_CITY)];
    const km = 15 * Math.sqrt(next());
    const bearing = next() * 2 * Math.PI;
    const lat = centre.lat + (km / 111.2) * Math.cos(bearing);
    const lon = centre.lon + (km / (111.2 * Math.cos((centre.lat * Math.PI) / 180))) * Math.sin(bearing);
    yield { driverId, lat, lon, updatedAt: now };
  }
}

/** Query points within 5 km of the measured cities. */
export function queryPoints(count: number): Point[] {
  const next = random(99);
  const centres = cities(MEASURED_CITIES);
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[i % centres.length];
    return { lat: centre.lat + (next() - 0.5) * 0.09, lon: centre.lon + (next() - 0.5) * 0.09 };
  });
}
