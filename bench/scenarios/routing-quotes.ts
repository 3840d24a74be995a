// Loads a road graph file as the service does (ROUTING=graph:<file>) and times quotes over random
// pairs of points in the city, through pricing's own FareQuotes (routing, then the fare);
// the demand signal is fixed, so the time is the router's and the arithmetic's. Also the load time
// and the memory the loaded graph takes: the process's RSS before and after, and the typed arrays'
// bytes. Prints one JSON line. Run with --expose-gc for a steadier RSS.
import { FIRST_RULES } from '../../src/modules/pricing/pricing.model.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { FareQuotes } from '../../src/modules/pricing/fare-quotes.ts';
import { COORDINATE_SCALE, readRoadGraph } from '../../src/platform/routing/road-graph.ts';
import { GraphRouter } from '../../src/platform/routing/graph-router.ts';
import { random } from '../lib/drivers.ts';
import { median, percentile, round } from '../lib/stats.ts';

const arg = (name: string) => new RegExp(`--${name}=(\\S+)`).exec(process.argv.join(' '))?.[1];
const file = arg('graph')!;
const quotes = Number(arg('quotes') ?? 2_000);
const gc = (globalThis as { gc?: () => void }).gc;

gc?.();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const graph = readRoadGraph(file);
const router = new GraphRouter(graph);
const loadMs = performance.now() - started;
gc?.();
const rssAfter = process.memoryUsage().rss;

// Random points inside the graph's extent (each snaps to its nearest corner).
let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
for (let v = 0; v < graph.lat.length; v++) {
  [minLat, maxLat] = [Math.min(minLat, graph.lat[v]), Math.max(maxLat, graph.lat[v])];
  [minLon, maxLon] = [Math.min(minLon, graph.lon[v]), Math.max(maxLon, graph.lon[v])];
}
const next = random(42);
const between = (low: number, high: number) => (low + next() * (high - low)) / COORDINATE_SCALE;
const point = () => ({ lat: between(minLat, maxLat), lon: between(minLon, maxLon) });

// Booking quotes (trip) ask no pickup wait: the nearest-driver source is never called here.
const fares = new FareQuotes({ signalAt: async () => ({ surgeMultiplier: 1, pickupEtaMinutes: 4 }) }, { current: () => ({ version: 1, rules: FIRST_RULES }) }, router, { minutes: async () => undefined }, { clock: systemClock, timeZone: 'UTC' });
const times: number[] = [];
let km = 0;
for (let i = 0; i < quotes + 50; i++) {
  const [pickup, drop] = [point(), point()];
  const mark = performance.now();
  const quote = await fares.trip(pickup, drop, 'mini');
  const elapsed = performance.now() - mark;
  if (quote.routeProvider !== 'graph') throw new Error(`a quote inside the city was answered by ${quote.routeProvider}`);
  if (i < 50) continue; // warm-up
  times.push(elapsed);
  km += quote.distanceKm;
}

const { graphBytes, gridBytes, searchBytes } = router.memory;
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
console.log(
  JSON.stringify({
    nodes: router.nodes,
    edges: router.edges,
    loadMs: round(loadMs, 0),
    rssDeltaMb: mb(rssAfter - rssBefore),
    graphMb: mb(graphBytes),
    gridMb: mb(gridBytes),
    searchMb: mb(searchBytes),
    quotes,
    meanKm: round(km / quotes, 1),
    p50: round(median(times), 2),
    p95: round(percentile(times, 95), 2),
    p99: round(percentile(times, 99), 2),
  }),
);
