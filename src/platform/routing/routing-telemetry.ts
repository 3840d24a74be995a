import type { Metrics } from '../metrics.ts';

/** What a routing provider reports as it works; /metrics counts it. */
export interface RoutingTelemetry {
  /** A call to the routing server (OSRM): which service, how it ended, how long it took. */
  request(service: RoutingService, outcome: 'ok' | 'failed' | 'timeout', seconds: number): void;
  /** An answer served from the cache instead of a call. */
  cacheHit(service: RoutingService): void;
  /** An answer `straight` gave because the configured provider could not. */
  fallback(reason: FallbackReason): void;
}

export type RoutingService = 'route' | 'table';
/** off_graph: a point too far from every road of the graph; no_path: no road between two points; timeout, failed: the server's. */
export type FallbackReason = 'off_graph' | 'no_path' | 'timeout' | 'failed';

export const silentTelemetry: RoutingTelemetry = { request() {}, cacheHit() {}, fallback() {} };

/** Telemetry as metric families of the app's /metrics, labelled with the configured provider. */
export function routingTelemetry(metrics: Metrics, provider: string): RoutingTelemetry {
  const requests = metrics.counter('routing_requests_total', 'Calls to the routing server (ROUTING=osrm:), by service and outcome (ok, failed, timeout)', ['service', 'outcome']);
  const latency = metrics.histogram('routing_request_duration_seconds', 'How long calls to the routing server took, by service', ['service']);
  const hits = metrics.counter('routing_cache_hits_total', 'Routes and tables answered from the routing cache, by service', ['service']);
  const fallbacks = metrics.counter('routing_fallbacks_total', 'Answers the straight provider gave because the configured one could not, by reason', ['provider', 'reason']);
  return {
    request(service, outcome, seconds) {
      requests.inc({ service, outcome });
      latency.observe({ service }, seconds);
    },
    cacheHit: (service) => hits.inc({ service }),
    fallback: (reason) => fallbacks.inc({ provider, reason }),
  };
}
