import type { City } from './cities.ts';
import { haversineKm, type Point } from './geo.ts';

// Traffic that varies by hour of week and by place, so that travel times have something to learn
// (docs/routing.md "Learned travel times"): cars move at the city's mean speed times this factor.
// Deterministic: the same hour and place always drive the same; the benchmark adds each trip's own luck.

/** Speed over the city's mean, by local hour, on a working day: free at night, slowest at the rushes. */
const WEEKDAY = [1.5, 1.55, 1.55, 1.55, 1.5, 1.4, 1.15, 0.85, 0.62, 0.6, 0.75, 0.9, 0.95, 0.95, 0.9, 0.85, 0.75, 0.6, 0.55, 0.62, 0.8, 1.0, 1.2, 1.35];
/** Saturday and Sunday: a late, gentle peak. */
const WEEKEND = [1.4, 1.5, 1.55, 1.55, 1.55, 1.5, 1.4, 1.3, 1.15, 1.05, 0.95, 0.9, 0.85, 0.85, 0.9, 0.9, 0.85, 0.8, 0.75, 0.8, 0.9, 1.05, 1.2, 1.3];
/** How much slower than the rest of the city the busiest places are at the worst hour. */
const CENTRE_SLOWDOWN = 0.45;

export const HOURS_PER_WEEK = 168;

/** The hour of week (0 = Monday 00:00) `simMs` into a run that started on a Monday at `startMinute`. */
export const hourOfWeekAt = (startMinute: number, simMs: number): number => Math.floor((startMinute + simMs / 60_000) / 60) % HOURS_PER_WEEK;

/** How busy a place is, 0 (outskirts) to 1 (at the centre with the most jobs): where people work is where traffic jams. */
export function busyness(city: City, at: Point): number {
  const mostJobs = Math.max(...city.centres.map((centre) => centre.jobs));
  let busy = 0;
  for (const centre of city.centres) {
    const km = haversineKm(at, centre);
    busy = Math.max(busy, (centre.jobs / mostJobs) * Math.exp(-((km / (2 * centre.spreadKm)) ** 2)));
  }
  return busy;
}

/** Traffic's factor on the city's mean speed for a trip starting at `at` in `hourOfWeek`. */
export function trafficFactor(city: City, at: Point, hourOfWeek: number): number {
  const hour = hourOfWeek % 24;
  const weekend = Math.floor(hourOfWeek / 24) % 7 >= 5;
  const byHour = (weekend ? WEEKEND : WEEKDAY)[hour];
  // The more jammed the hour, the more a busy place lags the rest of the city.
  const jam = Math.min(1, Math.max(0, (1.2 - byHour) / 0.65));
  return byHour * (1 - CENTRE_SLOWDOWN * jam * busyness(city, at));
}

/** The speed of a car setting off from `at` in `hourOfWeek`, km/h. */
export const trafficSpeedKmh = (city: City, at: Point, hourOfWeek: number): number => city.speedKmh * trafficFactor(city, at, hourOfWeek);
