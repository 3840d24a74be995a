// Routing (issue 28): the road-graph provider on a synthetic city of 202,500 corners
// (routing-city.ts), written as the file `npm run import-roads` writes and loaded as the service loads
// it, in a process of its own (routing-quotes.ts): quote latency over random pairs across the city,
// load time, and memory. In-process and the same in both modes, so it runs with the embedded one only.
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract } from '../../src/platform/routing/contraction.ts';
import { encodeRoadGraph } from '../../src/platform/routing/road-graph.ts';
import { log, quick, type Scenario } from '../lib/context.ts';
import { PINNING, spawnNode } from '../lib/processes.ts';
import { syntheticCity } from './routing-city.ts';

const QUOTES = quick ? 500 : 5_000;
const QUOTE_TARGET_MS = 5;

export const routingScenario: Scenario = async (mode) => {
  if (mode.name !== 'embedded') return [];
  log('routing: building a synthetic city road graph and contracting it, as import-roads does');
  const { graph: plain, droppedNodes } = syntheticCity();
  const contracting = performance.now();
  const { graph, shortcuts } = contract(plain);
  const contractSeconds = round1((performance.now() - contracting) / 1000);
  const dir = mkdtempSync(join(tmpdir(), 'ride-bench-roads-'));
  try {
    const file = join(dir, 'roads.bin');
    writeFileSync(file, encodeRoadGraph(graph));
    log(`routing: ${plain.lat.length.toLocaleString('en')} nodes, ${plain.target.length.toLocaleString('en')} road edges (${droppedNodes} nodes left out), ${shortcuts.toLocaleString('en')} shortcuts in ${contractSeconds} s; ${QUOTES} quotes`);
    const child = spawnNode(new URL('./routing-quotes.ts', import.meta.url).pathname, [`--graph=${file}`, `--quotes=${QUOTES}`], {}, PINNING?.service, ['--expose-gc']);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`routing benchmark failed:\n${output.slice(-2000)}`);
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, number>;
    const city = `${result.nodes.toLocaleString('en')}-node synthetic city`;
    return [
      {
        scenario: `graph routing: a quote between random points of a ${city} (mean trip ${result.meanKm} km, ${result.quotes} quotes; p95 ${result.p95} ms)`,
        mode: 'in-process',
        p50: result.p50,
        p99: result.p99,
        target: `p95 < ${QUOTE_TARGET_MS} ms`,
        met: result.p95 < QUOTE_TARGET_MS,
      },
      {
        scenario: `graph routing: loading the ${city} (${plain.target.length.toLocaleString('en')} road edges, ${shortcuts.toLocaleString('en')} shortcuts; contracted at import in ${contractSeconds} s)`,
        mode: 'in-process',
        value:
          `${result.loadMs} ms; RSS +${result.rssDeltaMb} MB; typed arrays ${round1(result.graphMb + result.gridMb + result.searchMb)} MB ` +
          `(graph ${result.graphMb}, nearest-node grid ${result.gridMb}, search state ${result.searchMb})`,
        target: 'stated',
        met: true,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const round1 = (value: number) => Math.round(value * 10) / 10;
