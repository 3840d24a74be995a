import type { ClientMessageHandlers } from '../../events.ts';
import { DriverProfiles, type DriverProfilesDependencies } from './driver-profiles.service.ts';
import { PositionMessage } from './drivers.schemas.ts';
import { DriversService, type DriversDependencies } from './drivers.service.ts';

export interface DriverServices {
  drivers: DriversService;
  profiles: DriverProfiles;
}

/** Where drivers are and what they drive, what the drivers module reacts to, and what it takes over the realtime channel. */
export function createDrivers(deps: { drivers: DriversDependencies; profiles: DriverProfilesDependencies; messages: ClientMessageHandlers }): DriverServices {
  const drivers = new DriversService(deps.drivers);
  const profiles = new DriverProfiles(deps.profiles);
  // A blocked or erased driver leaves the map before the operator gets the answer.
  deps.drivers.events.afterCommit('account.closed', ({ userId }) => drivers.goOffline(userId));
  // A position over the socket enters as at every other door; rides follows driver.positioned. Nothing is answered when it is taken.
  deps.messages.register('position', { schema: PositionMessage, roles: ['DRIVER'], handle: async (user, point) => void (await drivers.reportPosition(user.id, point)) });
  return { drivers, profiles };
}
