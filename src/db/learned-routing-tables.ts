/**
 * What insights learns about the roads from completed trips (its travel-times.service.ts): the ratio of
 * actual to router driving minutes per (pickup zone, drop zone, local hour of week), and the ratio of
 * kilometres driven to the great circle per zone a trip started in. Sums, so instances add to the same rows.
 */
export interface LearnedRoutingTables {
  travel_time_cells: { pickup_zone: string; drop_zone: string; hour_of_week: number; trips: number; ratio_sum: number };
  detour_cells: { zone: string; trips: number; ratio_sum: number };
}
