import type { Point } from '../src/contract/types.ts';

// The simulator is a client of the API, like a phone app: it brings its own small geometry rather
// than reaching into the service's code.

export type { Point };

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS_KM) / 180;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance. */
export function haversineKm(a: Point, b: Point): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `northKm` north and `eastKm` east of `from` (flat approximation: fine within a city). */
export function offsetKm(from: Point, northKm: number, eastKm: number): Point {
  return {
    lat: from.lat + northKm / KM_PER_DEGREE_LAT,
    lon: from.lon + eastKm / (KM_PER_DEGREE_LAT * Math.cos(rad(from.lat))),
  };
}

export function inBox(point: Point, box: Box): boolean {
  return point.lat >= box.south && point.lat <= box.north && point.lon >= box.west && point.lon <= box.east;
}

/** Coordinates as an app would send them: six decimals (about 10 cm). */
export function rounded(point: Point): Point {
  return { lat: Math.round(point.lat * 1e6) / 1e6, lon: Math.round(point.lon * 1e6) / 1e6 };
}

/** A polyline with the length of each stretch, to find the point a fraction of the way along it. */
export class Polyline {
  readonly points: readonly Point[];
  readonly #ends: number[] = [];

  constructor(points: readonly Point[]) {
    this.points = points;
    let total = 0;
    for (let i = 1; i < points.length; i++) this.#ends.push((total += haversineKm(points[i - 1], points[i])));
  }

  get km(): number {
    return this.#ends.at(-1) ?? 0;
  }

  /** The point `fraction` (0–1) of the way from the first point to the last. */
  at(fraction: number): Point {
    const target = Math.min(1, Math.max(0, fraction)) * this.km;
    const i = this.#ends.findIndex((end) => end >= target);
    if (i < 0) return this.points.at(-1)!;
    const start = i === 0 ? 0 : this.#ends[i - 1];
    const stretch = this.#ends[i] - start;
    const f = stretch === 0 ? 1 : (target - start) / stretch;
    const [a, b] = [this.points[i], this.points[i + 1]];
    return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
  }
}
