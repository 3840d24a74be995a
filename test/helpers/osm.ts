import { deflateSync } from 'node:zlib';

// Small OpenStreetMap extracts that tests write themselves: a street grid, as `.osm` XML and as
// `.osm.pbf` (encoded here with a minimal protocol-buffers writer of OSM's PBF format, independent of
// the parser the import uses, so the import is checked against the format, not against itself).

export interface OsmNodeData {
  id: number;
  lat: number;
  lon: number;
}
export interface OsmWayData {
  id: number;
  refs: number[];
  tags: Record<string, string>;
}
export interface OsmData {
  nodes: OsmNodeData[];
  ways: OsmWayData[];
}

export const GRID = { lat: 12.97, lon: 77.59, step: 0.001, size: 5 };
/** The OSM id of the grid node at a row (south to north) and a column (west to east). */
export const gridId = (row: number, col: number) => 1 + row * GRID.size + col;
export const gridPoint = (row: number, col: number, step = GRID.step) => ({ lat: GRID.lat + row * step, lon: GRID.lon + col * step });

/**
 * A 5 × 5 grid of residential streets `step` degrees apart (0.001°: about 110 m): a street along each
 * row (west → east node order) and each column (south → north). `rowTags` adds tags to a row's street
 * (oneway, access=no…). Besides: a footway straight across the grid, a building outline, and a
 * two-node street far away (an island the import leaves out).
 */
export function streetGrid(rowTags: Record<number, Record<string, string>> = {}, step = GRID.step): OsmData {
  const nodes: OsmNodeData[] = [];
  for (let row = 0; row < GRID.size; row++) for (let col = 0; col < GRID.size; col++) nodes.push({ id: gridId(row, col), ...gridPoint(row, col, step) });
  const ways: OsmWayData[] = [];
  for (let row = 0; row < GRID.size; row++) {
    ways.push({ id: 100 + row, refs: Array.from({ length: GRID.size }, (_, col) => gridId(row, col)), tags: { highway: 'residential', name: `Row ${row}`, ...rowTags[row] } });
  }
  for (let col = 0; col < GRID.size; col++) {
    ways.push({ id: 200 + col, refs: Array.from({ length: GRID.size }, (_, row) => gridId(row, col)), tags: { highway: 'residential', name: `Column ${col}` } });
  }
  ways.push({ id: 300, refs: [gridId(0, 0), gridId(4, 4)], tags: { highway: 'footway' } });
  nodes.push({ id: 900, lat: GRID.lat + 0.0005, lon: GRID.lon + 0.0005 }, { id: 901, lat: GRID.lat + 0.0005, lon: GRID.lon + 0.0006 }, { id: 902, lat: GRID.lat + 0.0006, lon: GRID.lon + 0.0006 });
  ways.push({ id: 301, refs: [900, 901, 902, 900], tags: { building: 'yes' } });
  nodes.push({ id: 950, lat: GRID.lat + 0.5, lon: GRID.lon + 0.5 }, { id: 951, lat: GRID.lat + 0.501, lon: GRID.lon + 0.5 });
  ways.push({ id: 302, refs: [950, 951], tags: { highway: 'residential' } });
  return { nodes, ways };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function osmXml({ nodes, ways }: OsmData): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="ride-hailing tests">'];
  for (const node of nodes) lines.push(`  <node id="${node.id}" lat="${node.lat}" lon="${node.lon}" version="1"/>`);
  for (const way of ways) {
    lines.push(`  <way id="${way.id}" version="1">`);
    for (const ref of way.refs) lines.push(`    <nd ref="${ref}"/>`);
    for (const [k, v] of Object.entries(way.tags)) lines.push(`    <tag k="${escape(k)}" v="${escape(v)}"/>`);
    lines.push('  </way>');
  }
  lines.push('</osm>');
  return lines.join('\n');
}

// Protocol buffers: every field is a key (number << 3 | wire type) then a varint (type 0) or a
// length-prefixed byte string (type 2). Packed repeated numbers are a byte string of varints.
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}
const zigzag = (value: number) => (value >= 0 ? 2 * value : -2 * value - 1);
const numberField = (field: number, value: number) => [...varint(field << 3), ...varint(value)];
const bytesField = (field: number, bytes: ArrayLike<number>) => [...varint((field << 3) | 2), ...varint(bytes.length), ...Array.from(bytes)];
const text = (value: string) => [...Buffer.from(value, 'utf8')];
const packed = (field: number, values: number[]) => bytesField(field, values.flatMap(varint));
const deltas = (values: number[]) => values.map((value, i) => zigzag(value - (i === 0 ? 0 : values[i - 1])));

/** One block of the file: its header (type and size), then the zlib-compressed blob. */
function fileBlock(type: string, block: number[]): Buffer {
  const blob = [...numberField(2, block.length), ...bytesField(3, deflateSync(Buffer.from(block)))];
  const header = [...bytesField(1, text(type)), ...numberField(3, blob.length)];
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, Buffer.from(header), Buffer.from(blob)]);
}

export function osmPbf({ nodes, ways }: OsmData): Buffer {
  const headerBlock = [...bytesField(4, text('OsmSchema-V0.6')), ...bytesField(4, text('DenseNodes'))];
  // The string table: index 0 is the empty string by the format's rule.
  const strings = [''];
  const stringIndex = (value: string) => {
    if (!strings.includes(value)) strings.push(value);
    return strings.indexOf(value);
  };
  const scale = (degrees: number) => Math.round(degrees * 1e7); // the default granularity: 100 nanodegrees
  const dense = [...packed(1, deltas(nodes.map((n) => n.id))), ...packed(8, deltas(nodes.map((n) => scale(n.lat)))), ...packed(9, deltas(nodes.map((n) => scale(n.lon))))];
  const wayMessages = ways.map((way) => {
    const keys = Object.keys(way.tags).map(stringIndex);
    const values = Object.values(way.tags).map(stringIndex);
    return bytesField(3, [...numberField(1, way.id), ...packed(2, keys), ...packed(3, values), ...packed(8, deltas(way.refs))]);
  });
  // Nodes in one group and ways in another, as writers do (a group holds one kind of element).
  const groups = [bytesField(2, bytesField(2, dense)), bytesField(2, wayMessages.flat())];
  const stringTable = bytesField(1, strings.flatMap((s) => bytesField(1, text(s))));
  const primitiveBlock = [...stringTable, ...groups.flat()];
  return Buffer.concat([fileBlock('OSMHeader', headerBlock), fileBlock('OSMData', primitiveBlock)]);
}
