import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import { SERVES } from '../drivers/vehicles.ts';
import type { Reach, ScheduledRideDrivers } from '../rides/ride-schedule-drivers.service.ts';
import type { Ride } from '../rides/rides.schemas.ts';
import { SEARCH_RADII_KM } from './dispatcher.ts';
import type { UpcomingRides as Upcoming } from './offers.schemas.ts';

export interface UpcomingRidesDependencies {
  rides: Pick<ScheduledRideDrivers, 'upcoming' | 'take'>;
  profiles: Pick<DriverProfiles, 'dispatchable'>;
  drivers: Pick<DriversService, 'current'>;
}

/**
 * Rides booked ahead as a driver sees them: the ones dispatch would offer them by the same rules (a
 * vehicle that serves the type, approved when approval is required, the pickup within the widest
 * search radius of where they are), and taking one ahead.
 */
export class UpcomingRides {
  readonly #deps: UpcomingRidesDependencies;

  constructor(deps: UpcomingRidesDependencies) {
    this.#deps = deps;
  }

  async list(driverId: number): Promise<Upcoming> {
    const [vehicles, reach] = await Promise.all([this.#deps.profiles.dispatchable([driverId]), this.#reach(driverId)]);
    const vehicle = vehicles.get(driverId);
    return this.#deps.rides.upcoming(driverId, vehicle ? SERVES[vehicle] : [], vehicle ? reach : undefined);
  }

  async take(driverId: number, rideId: number): Promise<Ride> {
    return this.#deps.rides.take(driverId, rideId, await this.#reach(driverId));
  }

  async #reach(driverId: number): Promise<Reach | undefined> {
    const position = await this.#deps.drivers.current(driverId);
    return position && { at: { lat: position.lat, lon: position.lon }, radiusKm: SEARCH_RADII_KM[SEARCH_RADII_KM.length - 1] };
  }
}
