import { localWeekMinute } from '../../platform/clock.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';

// Travel times that learn (docs/routing.md "Learned travel times"): completed trips' actual driving
// times, per (pickup zone, drop zone, hour of week), correct the router's time. A cell's correction is
// its mean ratio of actual to router time shrunk toward its parent's by how few trips it has:
//   correction = (n × mean ratio + k × parent) / (n + k)
// Cells nest: the whole city in that hour (whose parent is 1, no correction: 1 + n/(n+k) × (mean − 1)),
// then the pair of districts (H3 resolution 6), then the pair of zones. One odd trip moves a quote
// little; a city's traffic by hour is learned within days; a zone pair speaks once it has trips of its own.
// Pure functions and a plain map: the service (travel-times.service.ts) stores the cells, the
// benchmark (npm run bench -- --only=eta) runs the same arithmetic on a simulated week.
// The `straight` router's detour factor is learned the same way: per zone a trip starts in, the ratio
// of the distance driven along the driver's positions to the great circle, nested under the district
// and the city, the city shrunk toward ROAD_FACTOR instead of 1.

/** k: trips a cell needs before its observed ratio counts for half of the correction. */
export const SHRINK_TRIPS = 5;
/** A trip shorter than this (minutes, pickup to drop) is not a driving time: a test, a mistake, a ride ended at once. */
export const MIN_TRIP_MINUTES = 1;
/** Ratios beyond this either way are not traffic (a detour the rider asked for, a ride left open) and are not learned. */
export const MAX_RATIO = 4;

export const HOURS_PER_WEEK = 168;

/** A trip shorter than this as the crow flies tells little about the roads' detour (a U-turn doubles it). */
export const MIN_DETOUR_KM = 1;
/** Driven distances beyond this times the great circle are not the roads' detour (a wrong turn, an errand) and are not learned. */
export const MAX_DETOUR = 3;
/**
 * A trip's distance is learned from only when its last position counted was this near the drop: the
 * rest was then measured as a straight stretch, not by the router, whose own detour would teach itself.
 */
export const MAX_LAST_STRETCH_KM = 0.5;

/** What a cell has seen: its trips and the sum of their ratios (actual / router minutes). */
export interface Cell {
  trips: number;
  ratioSum: number;
}

/** One cell's estimate: `parent` (1: no correction) without trips, toward the observed mean ratio as trips come. */
export function correction(cell: Cell | undefined, k = SHRINK_TRIPS, parent = 1): number {
  if (!cell || cell.trips <= 0) return parent;
  return (cell.ratioSum + k * parent) / (cell.trips + k);
}

/** The estimate of nested cells, coarsest first: each shrinks toward the one before it, the coarsest toward `root`. */
export function nestedCorrection(cells: ReadonlyArray<Cell | undefined>, k = SHRINK_TRIPS, root = 1): number {
  let estimate = root;
  for (const cell of cells) estimate = correction(cell, k, estimate);
  return estimate;
}

/** A completed trip's ratio of actual to router minutes; undefined when it is not a driving time to learn from. */
export function tripRatio(actualMinutes: number, routerMinutes: number): number | undefined {
  if (!(actualMinutes >= MIN_TRIP_MINUTES) || !(routerMinutes > 0)) return undefined;
  const ratio = actualMinutes / routerMinutes;
  return ratio <= MAX_RATIO && ratio >= 1 / MAX_RATIO ? ratio : undefined;
}

/** A completed trip's ratio of driven to great-circle kilometres; undefined when it says nothing about the roads' detour. */
export function detourRatio(drivenKm: number, greatCircleKm: number): number | undefined {
  if (!(greatCircleKm >= MIN_DETOUR_KM) || !(drivenKm > 0)) return undefined;
  const ratio = drivenKm / greatCircleKm;
  return ratio >= 1 && ratio <= MAX_DETOUR ? ratio : undefined;
}

/**
 * The kilometres a completed trip was driven, from the distance counted along its positions and the
 * last position counted; undefined when no position was counted or the last was far from the drop.
 */
export function drivenKm(countedKm: number, last: Point | null, drop: Point): number | undefined {
  if (last === null) return undefined;
  const lastStretch = haversineKm(last, drop);
  return lastStretch <= MAX_LAST_STRETCH_KM ? countedKm + lastStretch : undefined;
}

/** Monday 00:00–01:00 local time is hour 0, Sunday 23:00–24:00 is 167. */
export function hourOfWeek(epochMs: number, timeZone: string): number {
  const { weekday, minuteOfDay } = localWeekMinute(epochMs, timeZone);
  return weekday * 24 + Math.floor(minuteOfDay / 60);
}

/** The cell of a trip between two zones (the stored one). */
export const cellKey = (pickupZone: string, dropZone: string, hour: number): string => `${pickupZone}>${dropZone}@${hour}`;

/** A trip's nested cells, coarsest first: the city in that hour, the district pair, the zone pair. */
export const cellKeys = (pickupZone: string, dropZone: string, hour: number, districtOf: (zone: string) => string): string[] => [
  `*@${hour}`,
  `${districtOf(pickupZone)}>${districtOf(dropZone)}@${hour}`,
  cellKey(pickupZone, dropZone, hour),
];

/** A detour cell's nested keys, coarsest first: the city, the district, the zone a trip starts in. */
export const detourKeys = (zone: string, districtOf: (zone: string) => string): string[] => ['*', districtOf(zone), zone];

/**
 * Learned cells in memory: what quotes read (the service loads and stores the finest cells; the coarser
 * ones are their sums). `root` is what the coarsest cell shrinks toward: 1 for travel times, ROAD_FACTOR for detours.
 */
export class TravelTimeCells {
  readonly #cells = new Map<string, Cell>();
  readonly #k: number;
  readonly #root: number;

  constructor(k = SHRINK_TRIPS, root = 1) {
    this.#k = k;
    this.#root = root;
  }

  get size(): number {
    return this.#cells.size;
  }

  /** Adds trips to each of the nested cells of `keys` (a trip learned, or a stored cell loaded). */
  add(keys: readonly string[], trips: number, ratioSum: number): void {
    for (const key of keys) {
      const cell = this.#cells.get(key);
      if (cell) {
        cell.trips += trips;
        cell.ratioSum += ratioSum;
      } else {
        this.#cells.set(key, { trips, ratioSum });
      }
    }
  }

  /** Learns one trip's ratio. */
  observe(keys: readonly string[], ratio: number): void {
    this.add(keys, 1, ratio);
  }

  get(key: string): Cell | undefined {
    return this.#cells.get(key);
  }

  /** The correction for a trip of these nested cells (coarsest first). */
  correction(keys: readonly string[]): number {
    return nestedCorrection(
      keys.map((key) => this.#cells.get(key)),
      this.#k,
      this.#root,
    );
  }
}
