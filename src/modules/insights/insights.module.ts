import type { DomainEventsDispatcher } from '../../events.ts';
import { DemandStats, type DemandStatsDependencies } from './demand-stats.service.ts';
import { InsightsService, type InsightsDependencies } from './insights.service.ts';
import { drivenKm } from './travel-times.model.ts';
import { TravelTimes, type TravelTimesDependencies } from './travel-times.service.ts';

export interface InsightsServices {
  insights: InsightsService;
  /** The demand statistics (demand_buckets); closed with the service, so what is pending is written. */
  demand: DemandStats;
  /** Learned travel times (travel_time_cells): pricing's quotes correct the router's minutes by them. */
  travelTimes: TravelTimes;
}

/** The demand model and its statistics, and what the insights module reacts to. */
export function createInsights(deps: DemandStatsDependencies & Omit<InsightsDependencies, 'demand'> & { events: DomainEventsDispatcher } & Pick<TravelTimesDependencies, 'router' | 'detours'>): InsightsServices {
  const demand = new DemandStats(deps);
  const insights = new InsightsService({ ...deps, demand });
  // Every committed booking, and every accept against the bucket its ride was booked in, feeds the demand statistics.
  deps.events.afterCommit('ride.booked', ({ ride }) => demand.recordBooking(ride.rider_id, ride.created_at));
  deps.events.afterCommit('ride.moved', ({ ride, from }) => {
    if (from === 'REQUESTED' && ride.status === 'ACCEPTED' && ride.accepted_at !== null) demand.recordAccept(ride.created_at, ride.accepted_at);
  });
  const travelTimes = new TravelTimes(deps);
  // Every trip driven to its end teaches the travel times of its zones and hour, and the roads' detour where it started.
  deps.events.afterCommit('ride.moved', ({ ride, from }) => {
    const { picked_at: pickedAt, completed_at: completedAt, pickup_lat, pickup_lon, drop_lat, drop_lon } = ride;
    if (from !== 'PICKED' || ride.status !== 'COMPLETED' || pickedAt === null || completedAt === null) return;
    if (pickup_lat === null || pickup_lon === null || drop_lat === null || drop_lon === null) return;
    const drop = { lat: drop_lat, lon: drop_lon };
    const last = ride.trip_last_lat === null || ride.trip_last_lon === null ? null : { lat: ride.trip_last_lat, lon: ride.trip_last_lon };
    return travelTimes.recordTrip({ pickup: { lat: pickup_lat, lon: pickup_lon }, drop, pickedAt, completedAt, drivenKm: drivenKm(ride.trip_distance_km, last, drop) });
  });
  return { insights, demand, travelTimes };
}
