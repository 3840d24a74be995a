import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { distanceKm, type Point } from '../../../src/platform/geo/geo.ts';
import { GraphRouter, SNAP_KM } from '../../../src/platform/routing/graph-router.ts';
import { decodeRoadGraph, encodeRoadGraph, readRoadGraph } from '../../../src/platform/routing/road-graph.ts';
import { importRoads } from '../../../src/platform/routing/road-import.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';
import { gridPoint, osmPbf, osmXml, streetGrid, type OsmData } from '../../helpers/osm.ts';

const SCRIPT = new URL('../../../scripts/import-roads.ts', import.meta.url).pathname;
const RESIDENTIAL_KMH = 20;
const METRE_KM = 0.001;

/** Kilometres along the grid's streets through these [row, col] corners, each step one block. */
function alongKm(...corners: Array<[number, number]>): number {
  let km = 0;
  for (let i = 1; i < corners.length; i++) {
    const [a, b] = [gridPoint(...corners[i - 1]), gridPoint(...corners[i])];
    km += distanceKm(a.lat, a.lon, b.lat, b.lon);
  }
  return km;
}

const near = (actual: number, expected: number, message?: string) => assert.ok(Math.abs(actual - expected) < METRE_KM, `${message ?? ''} ${actual} ≈ ${expected}`);

describe('importing roads and routing on the graph', () => {
  let dir: string;
  let grid: GraphRouter;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'roads-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the extract, imports it with the import's own code, writes the graph file and loads it as the service does. */
  async function routerFor(data: OsmData, name: string, format: 'osm' | 'osm.pbf' = 'osm'): Promise<GraphRouter> {
    const extract = join(dir, `${name}.${format}`);
    writeFileSync(extract, format === 'osm' ? osmXml(data) : osmPbf(data));
    const file = join(dir, `${name}.bin`);
    writeFileSync(file, encodeRoadGraph((await importRoads(extract)).graph));
    return GraphRouter.load(file);
  }

  test('npm run import-roads turns an .osm street grid into a graph file: drivable streets only, the island left out', async () => {
    const extract = join(dir, 'grid.osm');
    writeFileSync(extract, osmXml(streetGrid()));
    const out = join(dir, 'grid.bin');
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, extract, '--out', out]);
    // 25 corners; 40 two-way blocks; no building corner, no footway, no island.
    assert.match(stdout, /25 nodes, 80 road edges from 11 drivable ways and \d+ shortcuts/);
    assert.match(stdout, /left out 2 nodes/);
    assert.equal(readRoadGraph(out).lat.length, 25);
    grid = GraphRouter.load(out);
  });

  test('the script explains what it needs', async () => {
    const failure = await promisify(execFile)(process.execPath, [SCRIPT, join(dir, 'grid.osm')]).catch((error: { code: number; stderr: string }) => error);
    assert.equal((failure as { code: number }).code, 2);
    assert.match((failure as { stderr: string }).stderr, /usage: npm run import-roads -- <extract.osm.pbf \| extract.osm> --out <roads.bin>/);
  });

  test('a route follows the streets, not the footway across the grid, at the street class speed', async () => {
    const route = await grid.route(gridPoint(0, 0), gridPoint(2, 3), [], { geometry: true });
    assert.equal(route.provider, 'graph');
    near(route.distanceKm, alongKm([0, 0], [0, 3], [2, 3]), 'five blocks');
    near(route.durationMinutes, (route.distanceKm / RESIDENTIAL_KMH) * 60);
    const straight = await new StraightRouter().route(gridPoint(0, 0), gridPoint(2, 3));
    assert.notEqual(route.distanceKm.toFixed(2), straight.distanceKm.toFixed(2), 'not the straight estimate');
    const path = route.geometry!;
    assert.deepEqual(path[0], gridPoint(0, 0));
    assert.equal(path.length, 2 + 6, 'the two stops and the six corners between them');
    for (let i = 1; i < path.length; i++) {
      const [a, b] = [path[i - 1], path[i]];
      assert.ok(Math.abs(a.lat - b.lat) < 1e-9 || Math.abs(a.lon - b.lon) < 1e-9, 'along a row or a column, never diagonally');
    }
    const diagonal = await grid.route(gridPoint(0, 0), gridPoint(4, 4));
    near(diagonal.distanceKm, alongKm([0, 0], [0, 4], [4, 4]), 'eight blocks, though the footway is shorter');
  });

  test('a one-way street is driven its way only; the other way goes round the block', async () => {
    const router = await routerFor(streetGrid({ 1: { oneway: 'yes' } }), 'oneway');
    near((await router.route(gridPoint(1, 1), gridPoint(1, 3))).distanceKm, alongKm([1, 1], [1, 3]), 'with the traffic');
    near((await router.route(gridPoint(1, 3), gridPoint(1, 1))).distanceKm, alongKm([1, 3], [0, 3], [0, 1], [1, 1]), 'against it, round the block');
    const reversed = await routerFor(streetGrid({ 1: { oneway: '-1' } }), 'oneway-reversed');
    near((await reversed.route(gridPoint(1, 3), gridPoint(1, 1))).distanceKm, alongKm([1, 3], [1, 1]), 'oneway=-1 runs against the node order');
  });

  test('a closed or missing street forces a detour', async () => {
    const open = alongKm([3, 0], [3, 4]);
    near((await grid.route(gridPoint(3, 0), gridPoint(3, 4))).distanceKm, open, 'open: straight along row 3');
    const detour = alongKm([3, 0], [2, 0], [2, 4], [3, 4]);
    const closed = await routerFor(streetGrid({ 3: { access: 'no' } }), 'closed');
    near((await closed.route(gridPoint(3, 0), gridPoint(3, 4))).distanceKm, detour, 'access=no');
    const building = await routerFor(streetGrid({ 3: { highway: 'construction' } }), 'construction');
    near((await building.route(gridPoint(3, 0), gridPoint(3, 4))).distanceKm, detour, 'under construction');
    const data = streetGrid();
    const missing = await routerFor({ ...data, ways: data.ways.filter((way) => way.id !== 103) }, 'missing');
    near((await missing.route(gridPoint(3, 0), gridPoint(3, 4))).distanceKm, detour, 'not in the extract');
  });

  test('an .osm.pbf extract gives the same graph as the same streets in XML', async () => {
    const data = streetGrid({ 1: { oneway: 'yes' }, 3: { access: 'no' } });
    const extract = join(dir, 'same.osm.pbf');
    writeFileSync(extract, osmPbf(data));
    writeFileSync(join(dir, 'same.osm'), osmXml(data));
    const fromPbf = await importRoads(extract);
    const fromXml = await importRoads(join(dir, 'same.osm'));
    assert.deepEqual(fromPbf.stats, fromXml.stats);
    assert.deepEqual(fromPbf.graph, fromXml.graph);
    const router = await routerFor(data, 'pbf', 'osm.pbf');
    near((await router.route(gridPoint(1, 3), gridPoint(1, 1))).distanceKm, alongKm([1, 3], [0, 3], [0, 1], [1, 1]), 'one-way from the pbf tags');
  });

  test('a point beside a street is snapped to its nearest corner; a point off the map is routed straight', async () => {
    // 0.0002° (about 22 m) north of corner (1, 1).
    const beside: Point = { lat: gridPoint(1, 1).lat + 0.0002, lon: gridPoint(1, 1).lon };
    const snapped = await grid.route(beside, gridPoint(1, 3));
    assert.equal(snapped.provider, 'graph');
    near(snapped.distanceKm, alongKm([1, 1], [1, 3]) + distanceKm(beside.lat, beside.lon, gridPoint(1, 1).lat, gridPoint(1, 1).lon), 'the stretch to the corner counts');
    const far: Point = { lat: gridPoint(0, 0).lat - (SNAP_KM + 0.5) / 111, lon: gridPoint(0, 0).lon };
    const straight = await new StraightRouter().route(far, gridPoint(2, 2));
    assert.deepEqual(await grid.route(far, gridPoint(2, 2)), straight);
  });

  test('a route through stops adds up its legs', async () => {
    const route = await grid.route(gridPoint(0, 0), gridPoint(0, 4), [gridPoint(2, 2)]);
    near(route.distanceKm, alongKm([0, 0], [0, 2], [2, 2], [2, 4], [0, 4]));
  });

  test('a table agrees with single routes, and fills a cell off the map from straight', async () => {
    const sources = [gridPoint(0, 0), gridPoint(4, 4)];
    const far: Point = { lat: 13.5, lon: 77.59 };
    const destinations = [gridPoint(0, 4), gridPoint(2, 2), far];
    const table = await grid.table(sources, destinations);
    assert.equal(table.provider, 'graph');
    for (const [i, source] of sources.entries()) {
      for (const [j, destination] of destinations.entries()) {
        const route = await grid.route(source, destination);
        near(table.distancesKm[i][j], route.distanceKm, `distance ${i}→${j}`);
        assert.ok(Math.abs(table.durationsMinutes[i][j] - route.durationMinutes) < 1e-6, `minutes ${i}→${j}`);
      }
      assert.equal(table.distancesKm[i][2], (await new StraightRouter().route(source, far)).distanceKm);
    }
  });

  test('a file that is not a whole road graph is refused with what is wrong', async () => {
    const bytes = encodeRoadGraph((await importRoads(join(dir, 'grid.osm'))).graph);
    assert.throws(() => decodeRoadGraph(new TextEncoder().encode('node,lat,lon\n1,12.9,77.5\n')), /not a road graph written by npm run import-roads/);
    assert.throws(() => decodeRoadGraph(bytes.subarray(0, bytes.length - 8)), /a truncated file/);
    const corrupt = bytes.slice();
    new DataView(corrupt.buffer).setUint32(24 + 4 * (2 * 25 + 26), 999_999, true); // the first upward edge's other end
    assert.throws(() => decodeRoadGraph(corrupt), /edge leads to no node/);
    assert.equal(decodeRoadGraph(bytes.slice()).lat.length, 25);
  });
});
