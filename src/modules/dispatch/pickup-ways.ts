import type { Clock } from '../../platform/clock.ts';
import type { NearbyDriver } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { Router } from '../../platform/routing/router.ts';
import type { TravelTimes } from '../insights/travel-times.service.ts';

/** A driver's way to a pickup: kilometres by road and whole minutes (at least one), as the offer shows them. */
export interface PickupWay {
  km: number;
  minutes: number;
}

/**
 * A driver a round considers for a ride, with their way to its pickup; `seconds` is the way's driving
 * time before rounding to minutes, what a batched round weighs (whole minutes would tie too often).
 */
export type Candidate = NearbyDriver & { way: PickupWay; seconds: number };

export interface PickupWaysDependencies {
  /** ROUTING's router: the estimate's wait, the offer and the round's costs measure the same roads. */
  router: Pick<Router, 'table'>;
  /**
   * Insights' learned travel times (read from memory, reloaded by insights once a minute): no
   * database read per driver, however many a round weighs. Without them, the router's minutes.
   */
  learned?: { times: Pick<TravelTimes, 'correction'>; clock: Clock };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
// Floating point turns 8.4 / 24 × 60 into 21.000000000000004; settle to 6 decimals before ceil.
const wholeMinutes = (minutes: number) => Math.max(1, Math.ceil(Math.round(minutes * 1e6) / 1e6));

/**
 * How far and how long drivers are from a pickup: the router's way, its minutes corrected by what
 * trips around the pickup took at this hour of the week (as the estimate's pickup wait is), so an
 * estimate's wait, an offer's "1.7 km, about 5 min" and a batched round's costs all agree.
 */
export class PickupWays {
  readonly #deps: PickupWaysDependencies;

  constructor(deps: PickupWaysDependencies) {
    this.#deps = deps;
  }

  /** Each ride's drivers with their ways to its pickup, nearest by time first: one routing table per ride, all at once. */
  async of(pickups: readonly Point[], drivers: readonly NearbyDriver[][]): Promise<Candidate[][]> {
    const { learned } = this.#deps;
    const now = learned?.clock.now() ?? 0;
    return Promise.all(
      pickups.map(async (pickup, i) => {
        if (drivers[i].length === 0) return [];
        const table = await this.#deps.router.table(drivers[i], [pickup]);
        const correction = learned?.times.correction(pickup, pickup, now) ?? 1;
        return drivers[i]
          .map((driver, j) => {
            const minutes = table.durationsMinutes[j][0] * correction;
            return { ...driver, way: { km: round2(table.distancesKm[j][0]), minutes: wholeMinutes(minutes) }, seconds: Math.round(minutes * 60) };
          })
          .sort((a, b) => a.seconds - b.seconds || a.distanceKm - b.distanceKm);
      }),
    );
  }
}
