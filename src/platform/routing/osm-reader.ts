import { createReadStream } from 'node:fs';
import { createOSMStream } from 'osm-pbf-parser-node';
import { SaxesParser } from 'saxes';

// Streams the nodes or the ways of an OpenStreetMap extract, `.osm.pbf` (osm-pbf-parser-node: pure
// JavaScript on node:zlib, no native build) or `.osm` XML (saxes, a streaming parser), as the same
// plain objects. Only what the road import needs: node positions, way node lists and the way tags
// that decide driving (road-classes.ts).

export interface OsmNode {
  type: 'node';
  id: number;
  lat: number;
  lon: number;
}

export interface OsmWay {
  type: 'way';
  id: number;
  refs: number[];
  tags: Record<string, string>;
}

export type OsmElement = OsmNode | OsmWay;
export type OsmFormat = 'pbf' | 'xml';

const WAY_TAGS = ['highway', 'oneway', 'junction', 'access', 'vehicle', 'motor_vehicle', 'motorcar', 'maxspeed', 'area'];

export function osmFormat(file: string): OsmFormat {
  if (/\.pbf$/i.test(file)) return 'pbf';
  if (/\.(osm|xml)$/i.test(file)) return 'xml';
  throw new Error(`${file}: an OpenStreetMap extract ends in .osm.pbf or .osm`);
}

/** The nodes, or the ways, of the extract, in file order. */
export function readOsm<K extends OsmElement['type']>(file: string, kind: K): AsyncGenerator<Extract<OsmElement, { type: K }>> {
  const elements = osmFormat(file) === 'pbf' ? readPbf(file, kind) : readXml(file, kind);
  return elements as AsyncGenerator<Extract<OsmElement, { type: K }>>;
}

async function* readPbf(file: string, kind: OsmElement['type']): AsyncGenerator<OsmElement> {
  const options = { withTags: { node: false, way: kind === 'way' ? WAY_TAGS : false, relation: false }, withInfo: false };
  for await (const item of createOSMStream(file, options)) {
    const element = item as { type?: string; id: number; lat: number; lon: number; refs: number[]; tags?: Record<string, string> };
    if (element.type !== kind) continue;
    yield kind === 'node'
      ? { type: 'node', id: element.id, lat: element.lat, lon: element.lon }
      : { type: 'way', id: element.id, refs: element.refs, tags: element.tags ?? {} };
  }
}

async function* readXml(file: string, kind: OsmElement['type']): AsyncGenerator<OsmElement> {
  const parser = new SaxesParser();
  let found: OsmElement[] = [];
  let way: OsmWay | undefined;
  parser.on('opentag', ({ name, attributes }) => {
    const attribute = (key: string) => attributes[key] as string | undefined;
    if (name === 'node' && kind === 'node') {
      found.push({ type: 'node', id: Number(attribute('id')), lat: Number(attribute('lat')), lon: Number(attribute('lon')) });
    } else if (name === 'way' && kind === 'way') {
      way = { type: 'way', id: Number(attribute('id')), refs: [], tags: {} };
    } else if (way && name === 'nd') {
      way.refs.push(Number(attribute('ref')));
    } else if (way && name === 'tag') {
      const key = attribute('k');
      if (key !== undefined && WAY_TAGS.includes(key)) way.tags[key] = attribute('v') ?? '';
    }
  });
  parser.on('closetag', ({ name }) => {
    if (name !== 'way' || !way) return;
    found.push(way);
    way = undefined;
  });
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    parser.write(chunk as string);
    yield* found;
    found = [];
  }
  parser.close();
  yield* found;
}
