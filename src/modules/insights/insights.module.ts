import type { DomainEventsDispatcher } from '../../events.ts';
import { DemandStats, type DemandStatsDependencies } from './demand-stats.service.ts';
import { InsightsService, type InsightsDependencies } from './insights.service.ts';

export interface InsightsServices {
  insights: InsightsService;
  /** The demand statistics (demand_buckets); closed with the service, so what is pending is written. */
  demand: DemandStats;
}

/** The demand model and its statistics, and what the insights module reacts to. */
export function createInsights(deps: DemandStatsDependencies & Omit<InsightsDependencies, 'demand'> & { events: DomainEventsDispatcher }): InsightsServices {
  const demand = new DemandStats(deps);
  const insights = new InsightsService({ ...deps, demand });
  // Every committed booking, and every accept against the bucket its ride was booked in, feeds the demand statistics.
  deps.events.afterCommit('ride.booked', ({ ride }) => demand.recordBooking(ride.rider_id, ride.created_at));
  deps.events.afterCommit('ride.moved', ({ ride, from }) => {
    if (from === 'REQUESTED' && ride.status === 'ACCEPTED' && ride.accepted_at !== null) demand.recordAccept(ride.created_at, ride.accepted_at);
  });
  return { insights, demand };
}
