// npm run import-roads -- city.osm.pbf --out roads.bin      (or a city.osm XML extract)
//
// Builds the road graph that ROUTING=graph:roads.bin routes on, from an OpenStreetMap extract: the
// drivable roads with their class speeds and one-way rules, the largest part in which every node
// reaches every other, contracted for fast search, as the file src/platform/routing/road-graph.ts describes.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { encodeRoadGraph, graphBytes } from '../src/platform/routing/road-graph.ts';
import { importRoads } from '../src/platform/routing/road-import.ts';

const USAGE = 'usage: npm run import-roads -- <extract.osm.pbf | extract.osm> --out <roads.bin>';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ strict: true, allowPositionals: true, options: { out: { type: 'string' } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [input, ...rest] = parsed.positionals;
  const out = parsed.values.out;
  if (!input || rest.length > 0 || !out) {
    console.error(USAGE);
    return 2;
  }
  const started = performance.now();
  let result;
  try {
    result = await importRoads(input);
  } catch (error) {
    console.error(`import-roads: ${(error as Error).message}`);
    return 1;
  }
  const { graph, stats } = result;
  writeFileSync(out, encodeRoadGraph(graph));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (graphBytes(graph) / 2 ** 20).toFixed(1);
  console.log(
    `${out}: ${stats.nodes} nodes, ${stats.roads} road edges from ${stats.ways} drivable ways and ${stats.shortcuts} shortcuts (${megabytes} MB) in ${seconds} s; ` +
      `left out ${stats.droppedNodes} nodes not connected both ways to the rest, ${stats.missingNodes} way nodes missing from the extract`,
  );
  return 0;
}

process.exitCode = await main();
