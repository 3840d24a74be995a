import { distanceKm, type Point } from '../geo/geo.ts';
import { COORDINATE_SCALE, type RoadGraph } from './road-graph.ts';

// The nearest graph node to a point, through a grid of cells over the graph's bounding box: each cell
// lists its nodes (two typed arrays, built by a counting sort at load), and a search looks at rings of
// cells around the point until no nearer node can lie further out.

const KM_PER_DEGREE = 111.195;
const DEFAULT_CELL_DEGREES = 0.005; // about 550 m north-south
/** A grid larger than this many cells (a country-sized extract) gets coarser cells instead. */
const MAX_CELLS = 4_000_000;

export class NodeGrid {
  readonly #lat: Int32Array;
  readonly #lon: Int32Array;
  readonly #minLat: number;
  readonly #minLon: number;
  readonly #cell: number; // in 1e-7 degrees
  readonly #rows: number;
  readonly #cols: number;
  readonly #cellStart: Uint32Array;
  readonly #cellNodes: Uint32Array;
  /** The shortest side of a cell anywhere in the grid, in km (bounds how far a ring can be). */
  readonly #cellKm: number;

  constructor(graph: Pick<RoadGraph, 'lat' | 'lon'>, cellDegrees = DEFAULT_CELL_DEGREES) {
    const n = graph.lat.length;
    this.#lat = graph.lat;
    this.#lon = graph.lon;
    let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let v = 0; v < n; v++) {
      minLat = Math.min(minLat, graph.lat[v]);
      maxLat = Math.max(maxLat, graph.lat[v]);
      minLon = Math.min(minLon, graph.lon[v]);
      maxLon = Math.max(maxLon, graph.lon[v]);
    }
    if (n === 0) [minLat, maxLat, minLon, maxLon] = [0, 0, 0, 0];
    let cell = Math.round(cellDegrees * COORDINATE_SCALE);
    const span = (low: number, high: number) => Math.floor((high - low) / cell) + 1;
    while (span(minLat, maxLat) * span(minLon, maxLon) > MAX_CELLS) cell *= 2;
    this.#minLat = minLat;
    this.#minLon = minLon;
    this.#cell = cell;
    this.#rows = span(minLat, maxLat);
    this.#cols = span(minLon, maxLon);
    const widestLat = Math.max(Math.abs(minLat), Math.abs(maxLat)) / COORDINATE_SCALE;
    this.#cellKm = (cell / COORDINATE_SCALE) * KM_PER_DEGREE * Math.min(1, Math.cos((Math.min(widestLat, 89) * Math.PI) / 180));

    const cells = this.#rows * this.#cols;
    const cellOf = new Uint32Array(n);
    this.#cellStart = new Uint32Array(cells + 1);
    for (let v = 0; v < n; v++) {
      cellOf[v] = this.#cellIndex(Math.floor((graph.lat[v] - minLat) / cell), Math.floor((graph.lon[v] - minLon) / cell));
      this.#cellStart[cellOf[v] + 1]++;
    }
    for (let c = 0; c < cells; c++) this.#cellStart[c + 1] += this.#cellStart[c];
    const next = this.#cellStart.slice(0, cells);
    this.#cellNodes = new Uint32Array(n);
    for (let v = 0; v < n; v++) this.#cellNodes[next[cellOf[v]]++] = v;
  }

  /** Bytes of the grid's arrays. */
  get bytes(): number {
    return this.#cellStart.byteLength + this.#cellNodes.byteLength;
  }

  /** The node nearest to `point` and how far it is, or undefined when none is within `maxKm`. */
  nearest(point: Point, maxKm: number): { node: number; km: number } | undefined {
    const row = Math.floor((point.lat * COORDINATE_SCALE - this.#minLat) / this.#cell);
    const col = Math.floor((point.lon * COORDINATE_SCALE - this.#minLon) / this.#cell);
    let best = -1;
    let bestKm = Infinity;
    const look = (r: number, c: number) => {
      if (r < 0 || c < 0 || r >= this.#rows || c >= this.#cols) return;
      const index = this.#cellIndex(r, c);
      for (let i = this.#cellStart[index]; i < this.#cellStart[index + 1]; i++) {
        const v = this.#cellNodes[i];
        const km = distanceKm(point.lat, point.lon, this.#lat[v] / COORDINATE_SCALE, this.#lon[v] / COORDINATE_SCALE);
        if (km < bestKm) [best, bestKm] = [v, km];
      }
    };
    const farthest = Math.max(Math.abs(row), Math.abs(row - this.#rows), Math.abs(col), Math.abs(col - this.#cols));
    // A node in ring r (cells r steps away) is at least r - 1 whole cells from the point.
    for (let ring = 0; ring <= farthest && (ring - 1) * this.#cellKm <= Math.min(bestKm, maxKm); ring++) {
      if (ring === 0) look(row, col);
      for (let d = -ring; d <= ring && ring > 0; d++) {
        look(row - ring, col + d);
        look(row + ring, col + d);
        if (Math.abs(d) < ring) {
          look(row + d, col - ring);
          look(row + d, col + ring);
        }
      }
    }
    return best >= 0 && bestKm <= maxKm ? { node: best, km: bestKm } : undefined;
  }

  #cellIndex(row: number, col: number): number {
    return row * this.#cols + col;
  }
}
