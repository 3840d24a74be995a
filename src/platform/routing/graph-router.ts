import type { Point } from '../geo/geo.ts';
import { NodeGrid } from './node-grid.ts';
import { COORDINATE_SCALE, edgeCount, graphBytes, nodeCount, readRoadGraph, type RoadGraph } from './road-graph.ts';
import { RouteSearch, type PathCost } from './route-search.ts';
import { stopsOf, type Route, type RouteOptions, type Router, type RouteTable } from './router.ts';
import { silentTelemetry, type RoutingTelemetry } from './routing-telemetry.ts';
import { cityMinutes, StraightRouter } from './straight-router.ts';

// ROUTING=graph:<file>: routes on a road graph made by `npm run import-roads`, held in memory. A point
// is snapped to its nearest graph node; the stretch between the point and that node is counted as a
// straight line at city speed. A point further than SNAP_KM from every node is off the map the graph
// covers: that route (or table cell) is answered by `straight`, and counted as a fallback.

/** How far a point may be from the nearest road node and still be routed on the graph. */
export const SNAP_KM = 1;

interface Snap {
  node: number;
  km: number;
}

export interface GraphMemory {
  /** The graph's arrays (what the file holds). */
  graphBytes: number;
  /** The nearest-node grid built at load. */
  gridBytes: number;
  /** The search state, allocated once. */
  searchBytes: number;
}

export class GraphRouter implements Router {
  readonly provider = 'graph';
  readonly #graph: RoadGraph;
  readonly #grid: NodeGrid;
  readonly #search: RouteSearch;
  readonly #straight: StraightRouter;
  readonly #telemetry: RoutingTelemetry;

  constructor(graph: RoadGraph, options: { straight?: StraightRouter; telemetry?: RoutingTelemetry } = {}) {
    this.#graph = graph;
    this.#grid = new NodeGrid(graph);
    this.#search = new RouteSearch(graph);
    this.#straight = options.straight ?? new StraightRouter();
    this.#telemetry = options.telemetry ?? silentTelemetry;
  }

  /** A router on the graph file `npm run import-roads` wrote. */
  static load(file: string, options?: { straight?: StraightRouter; telemetry?: RoutingTelemetry }): GraphRouter {
    return new GraphRouter(readRoadGraph(file), options);
  }

  get nodes(): number {
    return nodeCount(this.#graph);
  }

  get edges(): number {
    return edgeCount(this.#graph);
  }

  get memory(): GraphMemory {
    return { graphBytes: graphBytes(this.#graph), gridBytes: this.#grid.bytes, searchBytes: this.#search.bytes };
  }

  async route(from: Point, to: Point, via: readonly Point[] = [], options: RouteOptions = {}): Promise<Route> {
    const stops = stopsOf(from, to, via);
    const snaps = stops.map((stop) => this.#grid.nearest(stop, SNAP_KM));
    if (snaps.some((snap) => snap === undefined)) return this.#fallback('off_graph', from, to, via, options);
    let seconds = 0;
    let metres = 0;
    const geometry: Point[] = [stops[0]];
    for (let i = 1; i < stops.length; i++) {
      const [a, b] = [snaps[i - 1]!, snaps[i]!];
      const cost = this.#search.fastest(a.node, b.node);
      if (!cost) return this.#fallback('no_path', from, to, via, options);
      seconds += cost.seconds;
      metres += cost.metres;
      if (options.geometry) geometry.push(...this.#search.lastPath().map((v) => this.#point(v)), stops[i]);
    }
    // The stretches between each stop and its road node, once at every stop a route passes.
    const accessKm = snaps.reduce((sum, snap, i) => sum + snap!.km * (i === 0 || i === stops.length - 1 ? 1 : 2), 0);
    const distanceKm = metres / 1000 + accessKm;
    return { distanceKm, durationMinutes: seconds / 60 + cityMinutes(accessKm), provider: 'graph', ...(options.geometry ? { geometry } : {}) };
  }

  async table(sources: readonly Point[], destinations: readonly Point[]): Promise<RouteTable> {
    const to = destinations.map((point) => this.#grid.nearest(point, SNAP_KM));
    const from = sources.map((point) => this.#grid.nearest(point, SNAP_KM));
    const onGraph = (snaps: Array<Snap | undefined>) => snaps.filter((snap): snap is Snap => snap !== undefined).map((snap) => snap.node);
    const costs = this.#search.table(onGraph(from), onGraph(to));
    // Rows and columns of the snapped points only; the others are filled from straight.
    const row = new Map(onGraph(from).map((node, i) => [node, costs[i]]));
    const column = new Map(onGraph(to).map((node, j) => [node, j]));
    const durationsMinutes: number[][] = [];
    const distancesKm: number[][] = [];
    let routed = 0;
    sources.forEach((source, i) => {
      const durations: number[] = [];
      const distances: number[] = [];
      destinations.forEach((destination, j) => {
        const [a, b] = [from[i], to[j]];
        const cost: PathCost | undefined = a && b ? row.get(a.node)?.[column.get(b.node)!] : undefined;
        if (a && b && cost) {
          routed++;
          const accessKm = a.km + b.km;
          durations.push(cost.seconds / 60 + cityMinutes(accessKm));
          distances.push(cost.metres / 1000 + accessKm);
          return;
        }
        this.#telemetry.fallback(a && b ? 'no_path' : 'off_graph');
        const straight = this.#straight.routeNow(source, destination);
        durations.push(straight.durationMinutes);
        distances.push(straight.distanceKm);
      });
      durationsMinutes.push(durations);
      distancesKm.push(distances);
    });
    const provider = routed > 0 || sources.length * destinations.length === 0 ? 'graph' : 'straight';
    return { durationsMinutes, distancesKm, provider };
  }

  #fallback(reason: 'off_graph' | 'no_path', from: Point, to: Point, via: readonly Point[], options: RouteOptions): Route {
    this.#telemetry.fallback(reason);
    return this.#straight.routeNow(from, to, via, options);
  }

  #point(v: number): Point {
    return { lat: this.#graph.lat[v] / COORDINATE_SCALE, lon: this.#graph.lon[v] / COORDINATE_SCALE };
  }
}
