import { DriverProfiles, type DriverProfilesDependencies } from './driver-profiles.service.ts';
import { DriversService, type DriversDependencies } from './drivers.service.ts';

export interface DriverServices {
  drivers: DriversService;
  profiles: DriverProfiles;
}

/** Where drivers are and what they drive, and what the drivers module reacts to. */
export function createDrivers(deps: { drivers: DriversDependencies; profiles: DriverProfilesDependencies }): DriverServices {
  const drivers = new DriversService(deps.drivers);
  const profiles = new DriverProfiles(deps.profiles);
  // A blocked or erased driver leaves the map before the operator gets the answer.
  deps.drivers.events.afterCommit('account.closed', ({ userId }) => drivers.goOffline(userId));
  return { drivers, profiles };
}
