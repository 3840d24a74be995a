import type { Clock } from '../../platform/clock.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Router } from '../../platform/routing/router.ts';
import { stopPoints, stopsOf } from './ride-stops.ts';
import type { RideSnapshot } from './rides.repository.ts';

/** How long one routed ETA stands before a newer position asks the router again... */
export const ETA_REFRESH_MS = 15_000;
/** ...unless the driver has moved this far from where it was routed. */
export const ETA_REROUTE_KM = 0.25;
const ETAS_MAX = 100_000;

/** Learned travel times (insights): the router's minutes for this trip, at this hour, times this. */
export interface LearnedTimes {
  correction(from: Point, to: Point, at: number): number;
}

interface Known {
  status: string;
  minutes: number;
  at: number;
  from: Point;
}

/** Where the ride is headed now: the pickup while ACCEPTED; while PICKED, the drop through the stops not reached yet. */
export function headingOf(ride: Pick<RideSnapshot, 'status' | 'pickup_lat' | 'pickup_lon' | 'drop_lat' | 'drop_lon' | 'stops'>): { to: Point; via: Point[] } | null {
  if (ride.status === 'ACCEPTED') return ride.pickup_lat === null || ride.pickup_lon === null ? null : { to: { lat: ride.pickup_lat, lon: ride.pickup_lon }, via: [] };
  if (ride.status !== 'PICKED' || ride.drop_lat === null || ride.drop_lon === null) return null;
  return { to: { lat: ride.drop_lat, lon: ride.drop_lon }, via: stopPoints(stopsOf(ride).filter((stop) => stop.reachedAt === null)) };
}

const countdown = (known: Known, now: number): number => Math.max(1, Math.ceil(known.minutes - (now - known.at) / 60_000));

/**
 * The minutes until the driver reaches where the ride is headed, by the service's router (the same
 * one that quoted the fare) in learned minutes, sent with each `ride.position`: the rider app shows them as "arrives
 * in about". Positions come every few seconds and a route may be an OSRM round trip, so a ride's ETA
 * is routed again after ETA_REFRESH_MS, or when the driver moved ETA_REROUTE_KM from where it was
 * routed, or the ride moved on; in between, the last one counts down by the time passed. The caller asks for one ride at a time.
 */
export class RideEtas {
  readonly #router: Pick<Router, 'route'>;
  readonly #learned: LearnedTimes | undefined;
  readonly #clock: Clock;
  readonly #known = new BoundedMap<number, Known>(ETAS_MAX);

  constructor(deps: { router: Pick<Router, 'route'>; learned?: LearnedTimes; clock: Clock }) {
    this.#router = deps.router;
    this.#learned = deps.learned;
    this.#clock = deps.clock;
  }

  /** Whole minutes (at least 1) from `from` to where the ride is headed; null when it is headed nowhere the router can tell. */
  async of(ride: RideSnapshot, from: Point): Promise<number | null> {
    const heading = headingOf(ride);
    if (!heading) return null;
    const now = this.#clock.now();
    const known = this.#known.get(ride.id);
    const current = known?.status === ride.status ? known : undefined;
    if (current && now - current.at < ETA_REFRESH_MS && haversineKm(current.from, from) < ETA_REROUTE_KM) return countdown(current, now);
    try {
      const route = await this.#router.route(from, heading.to, heading.via);
      // As offers and quotes learn: the way to the pickup by the pickup zone's cell, the trip by its zones'.
      const cell = ride.status === 'ACCEPTED' ? [heading.to, heading.to] as const : [from, heading.to] as const;
      const minutes = route.durationMinutes * (this.#learned?.correction(cell[0], cell[1], now) ?? 1);
      this.#known.set(ride.id, { status: ride.status, minutes, at: now, from });
      return Math.max(1, Math.ceil(minutes));
    } catch {
      // The router failed (every provider falls back to straight, so rarely): the last ETA still counts down.
      return current ? countdown(current, now) : null;
    }
  }
}
