import { EARTH_RADIUS_KM, type Point } from './geo.ts';

// The earth is cut into rows of 0.01° latitude (about 1.1 km), and each row into as many columns as
// make its cells about 1.1 km wide at the row's edge nearest the equator: 36,000 at the equator, 7
// in the row around a pole. Every cell then covers between about 0.5 and 1.2 km², so a search of a
// given radius looks at about the same number of cells at any latitude. (With columns of equal
// degrees, cells near a pole are centimetres wide, and one 50 km search there looked at 1.6 million.)
const ROW_DEGREES = 0.01;
const ROWS = Math.round(180 / ROW_DEGREES);
const EQUATOR_COLUMNS = Math.round(360 / ROW_DEGREES);
const RADIANS = Math.PI / 180;
/** A row's height, and the width of its cells at their widest. */
export const CELL_KM = ((ROW_DEGREES * Math.PI) / 180) * EARTH_RADIUS_KM;
// Slack for rounding: every circle is widened by about 6 mm.
const SLACK_RADIANS = 1e-9;

const edgeLat = (row: number) => row * ROW_DEGREES - 90;
const columnsOf = new Int32Array(ROWS);
const firstCellOf = new Int32Array(ROWS); // about 412 million cells in all: the keys fit 31 bits
for (let row = 0, cells = 0; row < ROWS; row++) {
  const equatorSide = Math.min(Math.abs(edgeLat(row)), Math.abs(edgeLat(row + 1)));
  columnsOf[row] = Math.max(1, Math.ceil(EQUATOR_COLUMNS * Math.cos(equatorSide * RADIANS) - 1e-9));
  firstCellOf[row] = cells;
  cells += columnsOf[row];
}

const rowOf = (lat: number) => Math.max(0, Math.min(ROWS - 1, Math.floor((lat + 90) / ROW_DEGREES)));

/** Where a longitude falls in a row, in columns from the row's start (−180°): its column is the whole part. */
const columnPosition = (row: number, lon: number) => ((lon + 180) / 360) * columnsOf[row];

function columnOf(row: number, lon: number): number {
  const columns = columnsOf[row];
  // Longitude 180 is the meridian of −180: column 0.
  const column = Math.floor(columnPosition(row, lon)) % columns;
  return column < 0 ? column + columns : column;
}

/** The cell holding a point, as one integer. */
export function cellOf(lat: number, lon: number): number {
  const row = rowOf(lat);
  return firstCellOf[row] + columnOf(row, lon);
}

/**
 * The cells a circle on the sphere can touch, ring by ring outwards from the cell of its centre, and
 * how near to the centre anything beyond a ring can be, so that a nearest-first search stops early.
 * Ring r holds the cells r rows away, or r columns of their own row away, whichever is more; each row
 * only as far east and west as the circle reaches on it. One instance serves one search at a time
 * (reset, then ring 0, 1, 2… until -1); its buffers are reused from search to search.
 */
export class CircleCells {
  /** The cells of the last ring, `cells[0]` to `cells[count - 1]`. */
  cells = new Int32Array(64);

  #lat = 0;
  #lon = 0;
  #sinLat = 0;
  #cosLat = 0;
  #cosRadius = 0;
  #wholeRows = false;
  #capSouth = 0;
  #capNorth = 0;
  #centerRow = 0;
  #south = 0;
  #north = 0;
  #lastRing = 0;
  // Per row of the circle, indexed by row − the circle's southernmost row; filled when a ring first reaches the row.
  #firstCell = new Int32Array(0);
  #columns = new Int32Array(0);
  #centerColumn = new Int32Array(0);
  #west = new Int32Array(0);
  #east = new Int32Array(0);
  #columnRadians = new Float64Array(0);
  #latGapHaversine = new Float64Array(0);
  #lonScale = new Float64Array(0);

  reset(center: Point, radiusKm: number): void {
    const radius = radiusKm / EARTH_RADIUS_KM + SLACK_RADIANS;
    const radiusDegrees = radius / RADIANS;
    this.#lat = center.lat;
    this.#lon = center.lon;
    this.#sinLat = Math.sin(center.lat * RADIANS);
    this.#cosLat = Math.cos(center.lat * RADIANS);
    this.#cosRadius = Math.cos(radius);
    // A circle of a quarter turn or more: its reach along a parallel is not worth working out.
    this.#wholeRows = radius >= Math.PI / 2;
    // Over a pole the circle reaches no farther from the equator than the pole itself.
    this.#capSouth = Math.max(-90, center.lat - radiusDegrees);
    this.#capNorth = Math.min(90, center.lat + radiusDegrees);
    this.#centerRow = rowOf(center.lat);
    this.#south = this.#centerRow - rowOf(this.#capSouth);
    this.#north = rowOf(this.#capNorth) - this.#centerRow;
    this.#lastRing = Math.max(this.#south, this.#north);
    const rows = this.#south + this.#north + 1;
    if (this.#columns.length < rows) {
      this.#firstCell = new Int32Array(rows);
      this.#columns = new Int32Array(rows);
      this.#centerColumn = new Int32Array(rows);
      this.#west = new Int32Array(rows);
      this.#east = new Int32Array(rows);
      this.#columnRadians = new Float64Array(rows);
      this.#latGapHaversine = new Float64Array(rows);
      this.#lonScale = new Float64Array(rows);
    }
  }

  /** Puts ring `ring` into `cells` and answers how many there are; -1 once the circle has no cells left. */
  ring(ring: number): number {
    if (ring > this.#lastRing) return -1;
    if (ring === 0) this.#reachRow(0);
    else {
      if (ring <= this.#north) this.#reachRow(ring);
      if (ring <= this.#south) this.#reachRow(-ring);
    }
    const low = -Math.min(ring, this.#south);
    const high = Math.min(ring, this.#north);
    // Two rows with a whole side of the ring, two cells in each row between.
    const most = 2 * (2 * ring + 1) + 2 * (high - low + 1);
    if (this.cells.length < most) this.cells = new Int32Array(Math.max(most, 2 * this.cells.length));
    let count = 0;
    for (let offset = low; offset <= high; offset++) {
      const i = offset + this.#south;
      const west = this.#west[i];
      const east = this.#east[i];
      if (offset === ring || offset === -ring) {
        for (let column = -Math.min(ring, west); column <= Math.min(ring, east); column++) this.cells[count++] = this.#cell(i, column);
      } else {
        if (ring <= west) this.cells[count++] = this.#cell(i, -ring);
        if (ring <= east) this.cells[count++] = this.#cell(i, ring);
      }
    }
    return count;
  }

  /**
   * Whether every point of every cell in a later ring lies farther than `km` from the centre: such
   * a cell is more than `ring` rows away, or more than `ring` columns of its own row.
   */
  fartherBeyond(ring: number, km: number): boolean {
    // A row more than `ring` rows away lies at least `ring` whole rows north or south.
    if (ring < Math.max(this.#south, this.#north) && ring * CELL_KM <= km) return false;
    // Haversine of the distance to the cells left in a row, each term at its least over them: at
    // least `ring` whole columns of longitude apart, at the row's poleward edge, and the row's gap.
    const h = Math.sin(Math.min(Math.PI / 2, km / EARTH_RADIUS_KM / 2)) ** 2;
    for (let offset = -Math.min(ring, this.#south); offset <= Math.min(ring, this.#north); offset++) {
      const i = offset + this.#south;
      if (ring >= Math.max(this.#west[i], this.#east[i])) continue;
      const halfLon = Math.min(Math.PI / 2, (ring * this.#columnRadians[i]) / 2);
      if (this.#latGapHaversine[i] + this.#lonScale[i] * Math.sin(halfLon) ** 2 <= h) return false;
    }
    return true;
  }

  #cell(i: number, columnOffset: number): number {
    const columns = this.#columns[i];
    let column = this.#centerColumn[i] + columnOffset;
    if (column < 0) column += columns;
    else if (column >= columns) column -= columns;
    return this.#firstCell[i] + column;
  }

  #reachRow(offset: number): void {
    const i = offset + this.#south;
    const row = this.#centerRow + offset;
    const columns = columnsOf[row];
    const south = edgeLat(row);
    const north = edgeLat(row + 1);
    this.#firstCell[i] = firstCellOf[row];
    this.#columns[i] = columns;
    this.#centerColumn[i] = columnOf(row, this.#lon);
    this.#columnRadians[i] = (2 * Math.PI) / columns;
    // The columns the circle's widest longitude on this row reaches east and west of the centre's column.
    const reach = this.#lonReach(Math.max(south, this.#capSouth), Math.min(north, this.#capNorth)) / this.#columnRadians[i];
    const position = columnPosition(row, this.#lon);
    const withinColumn = position - Math.floor(position);
    const west = Math.ceil(reach - withinColumn + 1e-9);
    const east = Math.floor(withinColumn + reach + 1e-9);
    if (west + east + 1 >= columns) {
      // The whole row, each column once.
      this.#west[i] = Math.floor((columns - 1) / 2);
      this.#east[i] = columns - 1 - this.#west[i];
    } else {
      this.#west[i] = west;
      this.#east[i] = east;
    }
    const latGap = offset > 0 ? south - this.#lat : offset < 0 ? this.#lat - north : 0;
    this.#latGapHaversine[i] = Math.sin((Math.max(0, latGap) * RADIANS) / 2) ** 2;
    const poleward = Math.min(90, Math.max(Math.abs(south), Math.abs(north)));
    this.#lonScale[i] = this.#cosLat * Math.max(0, Math.cos(poleward * RADIANS));
    this.#lastRing = Math.max(this.#lastRing, this.#west[i], this.#east[i]);
  }

  /** The most longitude (radians, up to π) the circle spans either side of its centre between two latitudes. */
  #lonReach(southDegrees: number, northDegrees: number): number {
    if (this.#wholeRows) return Math.PI;
    let reach = Math.max(this.#lonReachAt(southDegrees), this.#lonReachAt(northDegrees));
    // Between them the circle is widest where its edge turns back, at sin φ = sin φ₁ / cos radius.
    const turn = this.#sinLat / this.#cosRadius;
    if (turn > -1 && turn < 1) {
      const turnDegrees = Math.asin(turn) / RADIANS;
      if (turnDegrees > southDegrees && turnDegrees < northDegrees) reach = Math.max(reach, this.#lonReachAt(turnDegrees));
    }
    return reach;
  }

  /** Spherical law of cosines on the parallel at `latDegrees`: cos Δλ = (cos r − sin φ₁ sin φ) / (cos φ₁ cos φ). */
  #lonReachAt(latDegrees: number): number {
    const lat = latDegrees * RADIANS;
    const scale = this.#cosLat * Math.cos(lat);
    if (scale < 1e-12) return Math.PI; // a pole on either end: every longitude
    const cosReach = (this.#cosRadius - this.#sinLat * Math.sin(lat)) / scale;
    return cosReach <= -1 ? Math.PI : cosReach >= 1 ? 0 : Math.acos(cosReach);
  }
}
