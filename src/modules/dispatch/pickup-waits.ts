import type { Point } from '../../platform/geo/geo.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { AvailableDrivers } from './available-drivers.ts';
import { SEARCH_RADII_KM } from './dispatcher.ts';
import type { PickupWays } from './pickup-ways.ts';

/**
 * How long a rider would wait for a ride of each type here and now: the way by road, in learned
 * minutes, of the nearest available driver whose vehicle serves it, within the widest radius
 * dispatch searches. Undefined when there is none, so an estimate never promises a bike in five
 * minutes with no bike online.
 */
export class PickupWaits {
  readonly #drivers: Pick<AvailableDrivers, 'nearestServing'>;
  readonly #ways: Pick<PickupWays, 'of'>;

  constructor(drivers: Pick<AvailableDrivers, 'nearestServing'>, ways: Pick<PickupWays, 'of'>) {
    this.#drivers = drivers;
    this.#ways = ways;
  }

  async minutes(pickup: Point, rideType: RideType): Promise<number | undefined> {
    const nearest = await this.#drivers.nearestServing(pickup, rideType, SEARCH_RADII_KM[SEARCH_RADII_KM.length - 1]);
    if (!nearest) return undefined;
    const [[candidate]] = await this.#ways.of([pickup], [[nearest]]);
    return candidate.way.minutes;
  }
}
