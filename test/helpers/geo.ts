import { POSITION_TTL_MS, type DriverPosition, type NearbyDriver } from '../../src/platform/geo/driver-index.ts';
import { haversineKm, type Point } from '../../src/platform/geo/geo.ts';

// Shared by the tests of every driver-index implementation.

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180; // 111.195 km
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const round3 = (km: number) => Math.round(km * 1000) / 1000;

/** The point `km` away from `from` on the given bearing (degrees clockwise from north), on the sphere. */
export function destination(from: Point, bearingDegrees: number, km: number): Point {
  const δ = km / 6371.0088;
  const θ = (bearingDegrees * Math.PI) / 180;
  const φ1 = (from.lat * Math.PI) / 180;
  const λ1 = (from.lon * Math.PI) / 180;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  const lon = ((((λ2 * 180) / Math.PI + 540) % 360) + 360) % 360 - 180;
  return { lat: (φ2 * 180) / Math.PI, lon };
}

/** The expected answer: every fresh position, exact distances, sorted by distance then driver id. */
export function bruteForce(positions: Iterable<DriverPosition>, center: Point, radiusKm: number, limit: number, now: number): NearbyDriver[] {
  const found: NearbyDriver[] = [];
  for (const p of positions) {
    if (now - p.updatedAt >= POSITION_TTL_MS) continue;
    const distanceKm = haversineKm(center, p);
    if (distanceKm <= radiusKm) found.push({ driverId: p.driverId, lat: p.lat, lon: p.lon, distanceKm });
  }
  found.sort((a, b) => a.distanceKm - b.distanceKm || a.driverId - b.driverId);
  return found.slice(0, limit).map((d) => ({ ...d, distanceKm: round3(d.distanceKm) }));
}

export const ids = (drivers: NearbyDriver[]) => drivers.map((d) => d.driverId);
