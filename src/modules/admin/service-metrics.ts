import type { PoolStats } from '../../db/connect.ts';
import { runChecks, type ReadinessCheck } from '../../platform/health.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { DeliveryStats } from '../../platform/realtime/hub.ts';
import type { DispatchCounts } from '../dispatch/dispatcher.ts';
import type { AdminOverview } from './overview.service.ts';

/** What the service reports to Prometheus beyond requests and the process. */
export interface ServiceMetricsSources {
  overview: Pick<AdminOverview, 'figures'>;
  dispatcher: { counts(): Readonly<DispatchCounts> };
  /** Live connections of the realtime hub on this instance, and what it delivered. */
  hub: { readonly connections: number; readonly delivery: Readonly<DeliveryStats> };
  /** The readiness checks of /ready (database, and Redis when configured). */
  checks: Record<string, ReadinessCheck>;
  pools: () => PoolStats[];
  /** This instance's copy of the driver positions in Redis (production mode only). */
  copies?: { readonly stats: { applied: number; lagSeconds: number; resyncs: number }; takeMaxLag(): number };
}

/** Families collected one after another in a scrape share one read within this time. */
const SHARED_READ_MS = 1_000;

/** Adds these families to the service's metrics (beside requests and the process, platform/metrics.ts). */
export function serviceMetrics(metrics: Metrics, sources: ServiceMetricsSources): void {
  const figures = shared(() => sources.overview.figures());
  metrics.gauge('rides_today', 'Rides booked today (SERVICE_TIMEZONE), by the status each is in now', ['status'], async () =>
    Object.entries((await figures()).ridesToday).map(([status, value]) => ({ labels: { status }, value })),
  );
  metrics.gauge('open_requests', 'Rides waiting for a driver now, whenever booked', [], async () => [{ value: (await figures()).openRequests }]);
  metrics.gauge('incidents_unacknowledged', 'SOS incidents no operator has acknowledged yet', [], async () => [{ value: (await figures()).incidents.open }]);
  metrics.gauge('drivers', 'Drivers online, available for offers, and busy on a ride now', ['state'], async () => {
    const { online, available, busy } = (await figures()).drivers;
    return Object.entries({ online, available, busy }).map(([state, value]) => ({ labels: { state }, value }));
  });

  metrics.total('dispatch_rounds_total', 'Dispatch rounds this instance ran while it led dispatch', () => sources.dispatcher.counts().rounds);
  metrics.total('dispatch_offers_total', 'Ride offers this instance made to drivers', () => sources.dispatcher.counts().offers);
  metrics.total('dispatch_round_seconds_total', 'Time spent in the dispatch rounds this instance ran (divided by rounds: the mean round time)', () => sources.dispatcher.counts().roundSeconds);
  metrics.gauge('realtime_connections', 'Realtime connections (WebSocket and server-sent events) open on this instance', [], () => [{ value: sources.hub.connections }]);
  metrics.total('realtime_messages_delivered_total', 'Realtime messages handed to connections on this instance', () => sources.hub.delivery.delivered);
  metrics.total('realtime_delivery_lag_seconds_total', 'Time from sending to handing over, summed over delivered messages (divided by them: the realtime lag)', () => sources.hub.delivery.lagSeconds);
  metrics.total('realtime_messages_unsent_total', 'Realtime messages this instance could not number or keep (Redis unreachable); their users were told to resync', () => sources.hub.delivery.unsent);

  const copies = sources.copies;
  if (copies) {
    metrics.total('driver_positions_copy_changes_total', 'Changes of driver positions (and ticks) applied to this instance’s copy from Redis', () => copies.stats.applied);
    metrics.total('driver_positions_copy_lag_seconds_total', 'Time from a change’s sending to its arrival in this copy, summed over changes (divided by them: the mean lag)', () => copies.stats.lagSeconds);
    metrics.gauge('driver_positions_copy_lag_max_seconds', 'The largest lag of this copy behind Redis since the previous scrape (reads refuse a copy silent for 1 s)', [], () => [{ value: copies.takeMaxLag() / 1000 }]);
    metrics.total('driver_positions_copy_resyncs_total', 'Snapshots this copy loaded: at start, and after a missed change or a lost subscription', () => copies.stats.resyncs);
  }

  const checked = shared(() => runChecks(sources.checks));
  metrics.gauge('dependency_up', 'Whether a dependency (database, Redis) answered its readiness check: 1 yes, 0 no', ['dependency'], async () =>
    (await checked()).map(({ name, ok }) => ({ labels: { dependency: name }, value: ok ? 1 : 0 })),
  );
  metrics.gauge('dependency_check_seconds', 'How long the readiness check of a dependency took', ['dependency'], async () =>
    (await checked()).map(({ name, seconds }) => ({ labels: { dependency: name }, value: seconds })),
  );
  metrics.gauge('database_pool_connections', 'PostgreSQL connections per pool: open, idle, and requests waiting for one', ['pool', 'state'], () =>
    sources.pools().flatMap(({ pool, total, idle, waiting }) => [
      { labels: { pool, state: 'open' }, value: total },
      { labels: { pool, state: 'idle' }, value: idle },
      { labels: { pool, state: 'waiting' }, value: waiting },
    ]),
  );
}

/** One read serves every family of a scrape that needs it. */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > SHARED_READ_MS) last = { at: now, value: read() };
    return last.value;
  };
}
