// A synthetic city-sized road graph for the routing benchmark, from a fixed seed: a 450 × 450 grid
// of corners about 100 m apart (202,500 nodes, a city some 45 km across), each corner moved a little
// off the grid, with a road hierarchy (a trunk road every 4 km, a primary every 1 km, a secondary
// every 500 m, residential streets between), some residential blocks missing and some one-way in
// alternating directions, as in old city centres. Built with the import's own GraphBuilder.
import { distanceKm } from '../../src/platform/geo/geo.ts';
import { GraphBuilder, type BuiltGraph } from '../../src/platform/routing/graph-builder.ts';
import { HIGHWAY_SPEEDS_KMH } from '../../src/platform/routing/road-classes.ts';
import { random } from '../lib/drivers.ts';

export const CITY_SIZE = 450;
const ORIGIN = { lat: 12.77, lon: 77.38 };
const STEP = 0.0009; // degrees, about 100 m
const MISSING_SHARE = 0.08;
const ONE_WAY_SHARE = 0.15;

/** The class of the street along grid line `index` (a row or a column). */
function lineClass(index: number): string {
  if (index % 40 === 0) return 'trunk';
  if (index % 10 === 0) return 'primary';
  if (index % 5 === 0) return 'secondary';
  return 'residential';
}

export function syntheticCity(seed = 28): BuiltGraph {
  const next = random(seed);
  const builder = new GraphBuilder();
  const lat = new Float64Array(CITY_SIZE * CITY_SIZE);
  const lon = new Float64Array(CITY_SIZE * CITY_SIZE);
  for (let row = 0; row < CITY_SIZE; row++) {
    for (let col = 0; col < CITY_SIZE; col++) {
      const v = row * CITY_SIZE + col;
      lat[v] = ORIGIN.lat + row * STEP + (next() - 0.5) * STEP * 0.4;
      lon[v] = ORIGIN.lon + col * STEP + (next() - 0.5) * STEP * 0.4;
      builder.addNode(lat[v], lon[v]);
    }
  }
  const street = (a: number, b: number, line: number) => {
    const kind = lineClass(line);
    const metres = distanceKm(lat[a], lon[a], lat[b], lon[b]) * 1000;
    const speed = HIGHWAY_SPEEDS_KMH[kind];
    if (kind === 'residential') {
      const u = next();
      if (u < MISSING_SHARE) return;
      if (u < MISSING_SHARE + ONE_WAY_SHARE) {
        if (line % 2 === 0) builder.addEdge(a, b, metres, speed);
        else builder.addEdge(b, a, metres, speed);
        return;
      }
    }
    builder.addEdge(a, b, metres, speed);
    builder.addEdge(b, a, metres, speed);
  };
  for (let row = 0; row < CITY_SIZE; row++) {
    for (let col = 0; col < CITY_SIZE; col++) {
      const v = row * CITY_SIZE + col;
      if (col + 1 < CITY_SIZE) street(v, v + 1, row);
      if (row + 1 < CITY_SIZE) street(v, v + CITY_SIZE, col);
    }
  }
  return builder.build();
}
