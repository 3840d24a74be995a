import { toIso, type Clock } from '../../platform/clock.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { RideDispatch } from '../rides/ride-dispatch.service.ts';
import type { LiveDriversQuery, LiveDrivers, LiveDriverState } from './live-drivers.schemas.ts';

export interface LiveDriversDependencies {
  drivers: Pick<DriversService, 'nearby'>;
  profiles: Pick<DriverProfiles, 'dispatchable'>;
  rides: Pick<RideDispatch, 'busyAmong'>;
  users: Pick<AuthService, 'findUsers'>;
  clock: Clock;
}

const liveState = (busy: boolean, cleared: boolean): LiveDriverState => (busy ? 'busy' : cleared ? 'available' : 'not_cleared');

/**
 * The operators' live map of drivers: one radius search of the location index (the drivers module
 * owns positions), then three reads for the drivers found, however many, so a console may ask
 * every few seconds.
 */
export class LiveDriverMap {
  readonly #deps: LiveDriversDependencies;

  constructor(deps: LiveDriversDependencies) {
    this.#deps = deps;
  }

  async around({ lat, lon, radiusKm, limit }: LiveDriversQuery): Promise<LiveDrivers> {
    // One more than asked for tells whether the limit cut the list.
    const found = await this.#deps.drivers.nearby({ lat, lon }, radiusKm, limit + 1);
    const shown = found.slice(0, limit);
    const ids = shown.map((driver) => driver.driverId);
    const [busy, cleared, users] = await Promise.all([this.#deps.rides.busyAmong(ids), this.#deps.profiles.dispatchable(ids), this.#deps.users.findUsers(ids)]);
    return {
      generatedAt: toIso(this.#deps.clock.now()),
      complete: found.length <= limit,
      drivers: shown.map((driver) => ({
        ...driver,
        name: users.get(driver.driverId)?.name ?? null,
        state: liveState(busy.has(driver.driverId), cleared.has(driver.driverId)),
      })),
    };
  }
}
