import type { DriverPosition, NearbyDriver } from '../../platform/geo/driver-index.ts';
import { distanceKm, EARTH_RADIUS_KM, type Point } from '../../platform/geo/geo.ts';

// A static k-d tree (J. L. Bentley, "Multidimensional binary search trees used for associative
// searching", CACM 18(9), 1975) over the drivers' points on the unit sphere (x, y, z). A shorter
// chord is a shorter great-circle distance, so nearest-first order is exact anywhere on Earth:
// no projection, no seam at ±180°, no poles to treat apart. Built once per dispatch round in
// O(n log n); each question then costs about log n + k steps whatever the local density, where a
// grid of fixed cells walks every driver of a crowded cell.

const RADIANS = Math.PI / 180;

/** The chord of the unit sphere that spans `km` of great circle. */
const chordOf = (km: number) => 2 * Math.sin(Math.min(Math.PI, km / EARTH_RADIUS_KM) / 2);

export class NearestDrivers {
  readonly size: number;
  // Tree order: the node of the range [lo, hi) sits at its middle, (lo + hi) >> 1.
  readonly #id: Float64Array;
  readonly #lat: Float64Array;
  readonly #lon: Float64Array;
  readonly #x: Float64Array;
  readonly #y: Float64Array;
  readonly #z: Float64Array;
  readonly #axis: Uint8Array;
  // Scratch for the depth-first walk: ranges still to visit, each with how close it can be.
  #stack = new Int32Array(0);
  #stackBound = new Float64Array(0);

  constructor(positions: readonly DriverPosition[]) {
    const n = positions.length;
    this.size = n;
    const source = [new Float64Array(n), new Float64Array(n), new Float64Array(n)] as const;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const φ = positions[i].lat * RADIANS;
      const λ = positions[i].lon * RADIANS;
      source[0][i] = Math.cos(φ) * Math.cos(λ);
      source[1][i] = Math.cos(φ) * Math.sin(λ);
      source[2][i] = Math.sin(φ);
      order[i] = i;
    }
    this.#axis = new Uint8Array(n);
    const build = (lo: number, hi: number): void => {
      if (hi - lo <= 1) return;
      const axis = widestAxis(source, order, lo, hi);
      const middle = (lo + hi) >> 1;
      select(order, source[axis], lo, hi, middle);
      this.#axis[middle] = axis;
      build(lo, middle);
      build(middle + 1, hi);
    };
    build(0, n);
    this.#id = new Float64Array(n);
    this.#lat = new Float64Array(n);
    this.#lon = new Float64Array(n);
    this.#x = new Float64Array(n);
    this.#y = new Float64Array(n);
    this.#z = new Float64Array(n);
    for (let slot = 0; slot < n; slot++) {
      const i = order[slot];
      this.#id[slot] = positions[i].driverId;
      this.#lat[slot] = positions[i].lat;
      this.#lon[slot] = positions[i].lon;
      this.#x[slot] = source[0][i];
      this.#y[slot] = source[1][i];
      this.#z[slot] = source[2][i];
    }
  }

  /** The `k` nearest drivers within `radiusKm`, nearest first (ties by id), distances to the metre. */
  nearest(center: Point, radiusKm: number, k: number, excluded?: ReadonlySet<number>): NearbyDriver[] {
    if (k <= 0 || this.size === 0) return [];
    const φ = center.lat * RADIANS;
    const λ = center.lon * RADIANS;
    const qx = Math.cos(φ) * Math.cos(λ);
    const qy = Math.cos(φ) * Math.sin(λ);
    const qz = Math.sin(φ);
    const ids = this.#id;
    const limit = chordOf(radiusKm) ** 2;
    // The best so far, ordered by (squared chord, id); `bound` is what a newcomer may not exceed.
    const chords: number[] = [];
    const slots: number[] = [];
    let bound = limit;
    // At most two ranges per level wait on the stack; the tree is balanced, so 2 log2(n) + 2 slots do.
    const depth = 2 * Math.ceil(Math.log2(this.size + 1)) + 2;
    if (this.#stack.length < 2 * depth) {
      this.#stack = new Int32Array(2 * depth);
      this.#stackBound = new Float64Array(depth);
    }
    const stack = this.#stack;
    const stackBound = this.#stackBound;
    stack[0] = 0;
    stack[1] = this.size;
    stackBound[0] = 0;
    let top = 1;
    while (top > 0) {
      top--;
      if (stackBound[top] > bound) continue;
      const lo = stack[2 * top];
      const hi = stack[2 * top + 1];
      const m = (lo + hi) >> 1;
      const chord = (qx - this.#x[m]) ** 2 + (qy - this.#y[m]) ** 2 + (qz - this.#z[m]) ** 2;
      if (chord <= bound && !excluded?.has(ids[m])) {
        let rank = chords.length;
        while (rank > 0 && (chord < chords[rank - 1] || (chord === chords[rank - 1] && ids[m] < ids[slots[rank - 1]]))) rank--;
        if (rank < k) {
          chords.splice(rank, 0, chord);
          slots.splice(rank, 0, m);
          if (chords.length > k) {
            chords.pop();
            slots.pop();
          }
          if (chords.length === k) bound = Math.min(limit, chords[k - 1]);
        }
      }
      if (hi - lo === 1) continue;
      const axis = this.#axis[m];
      // Whatever lies beyond the splitting plane is at least `gap` away; the near side goes on top.
      const gap = axis === 0 ? qx - this.#x[m] : axis === 1 ? qy - this.#y[m] : qz - this.#z[m];
      const below = gap < 0;
      if (below ? m + 1 < hi : lo < m) {
        stack[2 * top] = below ? m + 1 : lo;
        stack[2 * top + 1] = below ? hi : m;
        stackBound[top++] = gap * gap;
      }
      if (below ? lo < m : m + 1 < hi) {
        stack[2 * top] = below ? lo : m + 1;
        stack[2 * top + 1] = below ? m : hi;
        stackBound[top++] = 0;
      }
    }
    // Chord order is distance order (ties by id); distances as every index reports them.
    return slots.map((slot) => ({
      driverId: ids[slot],
      lat: this.#lat[slot],
      lon: this.#lon[slot],
      distanceKm: Math.round(distanceKm(center.lat, center.lon, this.#lat[slot], this.#lon[slot]) * 1000) / 1000,
    }));
  }
}

function widestAxis(source: readonly [Float64Array, Float64Array, Float64Array], order: Int32Array, lo: number, hi: number): 0 | 1 | 2 {
  let widest: 0 | 1 | 2 = 0;
  let widestSpread = -1;
  for (const axis of [0, 1, 2] as const) {
    const values = source[axis];
    let min = Infinity;
    let max = -Infinity;
    for (let i = lo; i < hi; i++) {
      const value = values[order[i]];
      if (value < min) min = value;
      if (value > max) max = value;
    }
    if (max - min > widestSpread) {
      widestSpread = max - min;
      widest = axis;
    }
  }
  return widest;
}

/**
 * Reorders order[lo, hi) so that order[nth] holds the element of that rank by `key`, with no
 * larger key before it and no smaller one after it (Hoare's FIND, CACM 4(7), 1961).
 */
function select(order: Int32Array, key: Float64Array, lo: number, hi: number, nth: number): void {
  let left = lo;
  let right = hi - 1;
  while (right > left) {
    const pivot = key[order[(left + right) >> 1]];
    let i = left;
    let j = right;
    while (i <= j) {
      while (key[order[i]] < pivot) i++;
      while (key[order[j]] > pivot) j--;
      if (i <= j) {
        const swap = order[i];
        order[i] = order[j];
        order[j] = swap;
        i++;
        j--;
      }
    }
    if (nth <= j) right = j;
    else if (nth >= i) left = i;
    else return;
  }
}
