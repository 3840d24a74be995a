import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics.ts';
import { GraphRouter } from './graph-router.ts';
import { OsrmRouter } from './osrm-router.ts';
import type { Router } from './router.ts';
import type { RoutingConfig } from './routing-config.ts';
import { routingTelemetry, type RoutingTelemetry } from './routing-telemetry.ts';
import { StraightRouter, type DetourFactor } from './straight-router.ts';

/** A server that stopped answering is said once per this period in the log (every fallback is counted in /metrics). */
const WARN_EVERY_MS = 60_000;

/**
 * The router ROUTING chose; a graph file that cannot be read stops the start with a message naming ROUTING.
 * `detour`: the straight lines' detour factor (learned per zone), for `straight` and for every fallback to it.
 */
export function createRouter(config: RoutingConfig, deps: { metrics: Metrics; log: FastifyBaseLogger; detour?: DetourFactor }): Router {
  const straight = new StraightRouter(deps.detour);
  if (config.provider === 'straight') return straight;
  const telemetry = warnOnServerFailures(routingTelemetry(deps.metrics, config.provider), deps.log);
  if (config.provider === 'osrm') return new OsrmRouter({ url: config.url, telemetry, straight });
  const started = performance.now();
  let router: GraphRouter;
  try {
    router = GraphRouter.load(config.file, { telemetry, straight });
  } catch (error) {
    throw new Error(`ROUTING graph file ${config.file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const { graphBytes, gridBytes, searchBytes } = router.memory;
  const megabytes = Math.round((graphBytes + gridBytes + searchBytes) / 2 ** 20);
  deps.log.info({ routing: { file: config.file, nodes: router.nodes, edges: router.edges, megabytes, loadMs: Math.round(performance.now() - started) } }, 'road graph loaded');
  return router;
}

function warnOnServerFailures(telemetry: RoutingTelemetry, log: FastifyBaseLogger): RoutingTelemetry {
  let warnedAt = -Infinity;
  return {
    ...telemetry,
    fallback(reason) {
      telemetry.fallback(reason);
      if ((reason !== 'timeout' && reason !== 'failed') || performance.now() - warnedAt < WARN_EVERY_MS) return;
      warnedAt = performance.now();
      log.warn({ reason }, 'routing server not answering; routes fall back to straight lines');
    },
  };
}
