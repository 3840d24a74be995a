import { toIsoOrNull } from '../../platform/clock.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { RideStop } from './ride-stops.schemas.ts';
import type { RideRow } from './rides.repository.ts';

// A ride's stops as its row keeps them (a JSON list, in order): what a booking writes, what views
// show, and how long the ride waited at each (from the driver's mark to leaving it).

/** A stop as stored: times in epoch milliseconds. */
export interface StoredStop {
  lat: number;
  lon: number;
  place: string | null;
  reachedAt: number | null;
  leftAt: number | null;
}

const MINUTE_MS = 60_000;

export const stopsOf = (ride: Pick<RideRow, 'stops'>): StoredStop[] => JSON.parse(ride.stops) as StoredStop[];

/** The stops a booking names, none reached yet, as the row keeps them. */
export const bookedStops = (stops: ReadonlyArray<{ lat: number; lon: number; place?: string | null }> = []): string =>
  JSON.stringify(stops.map(({ lat, lon, place }): StoredStop => ({ lat, lon, place: place ?? null, reachedAt: null, leftAt: null })));

export const stopPoints = (stops: readonly StoredStop[]): Point[] => stops.map(({ lat, lon }) => ({ lat, lon }));

export const toStopViews = (ride: Pick<RideRow, 'stops'>): RideStop[] =>
  stopsOf(ride).map((stop) => ({ lat: stop.lat, lon: stop.lon, place: stop.place, reachedAt: toIsoOrNull(stop.reachedAt), leftAt: toIsoOrNull(stop.leftAt) }));

/** The stop the ride waits at now: reached and not yet left (at most one: marks go in order). */
export const waitingAt = (stops: readonly StoredStop[]): number => stops.findIndex((stop) => stop.reachedAt !== null && stop.leftAt === null);

/** Minutes waited at each stop reached, until it was left or, still there, until `end` (the drop). */
export const stopWaits = (stops: readonly StoredStop[], end: number): number[] =>
  stops.filter((stop) => stop.reachedAt !== null).map((stop) => Math.max(0, (stop.leftAt ?? end) - stop.reachedAt!) / MINUTE_MS);
