import { MAX_ID } from '../../db/database.ts';
import { isAdmin, type AuthUser } from '../../platform/auth/roles.ts';
import { badRequest, conflict, forbidden } from '../../platform/errors.ts';
import type { CancelledBy, RideStatus } from './rides.schemas.ts';

export { livePosition, publicPositionVisible } from './live-position.ts';

// Who may do what with a ride (decisions.md "Who may do what"), as pure functions of the caller
// and the ride. Each one either answers or throws the error the API returns.

export interface RideParties {
  rider_id: number;
  driver_id: number | null;
}

/** How the caller takes part in a ride, which decides what they see of it. */
export type Viewer = 'rider' | 'driver' | 'admin' | 'public';

export function viewerOf(user: AuthUser | null, ride: RideParties): Viewer {
  if (!user) return 'public';
  if (ride.rider_id === user.id) return 'rider';
  if (ride.driver_id === user.id) return 'driver';
  return isAdmin(user) ? 'admin' : 'public';
}

/** The driver a ride may be accepted for: a DRIVER for themself, an ADMIN for any DRIVER (checked by the caller). */
export function acceptingDriver(user: AuthUser, requested: string | number | undefined): number {
  if (user.role !== 'DRIVER' && !isAdmin(user)) throw forbidden('Only drivers can accept rides');
  if (requested === undefined) throw badRequest('driverId is required to accept a ride');
  const driverId = Number(requested);
  if (!isAdmin(user) && driverId !== user.id) throw forbidden('Drivers accept rides for themselves: driverId must be your own id');
  // Beyond the id columns' range no account can be meant, and no query may be asked about it.
  if (driverId > MAX_ID) throw badRequest('driverId must belong to a DRIVER account');
  return driverId;
}

/** An account that signed up again as a driver must not drive its own booking. */
export function assertNotOwnRide(ride: RideParties, driverId: number): void {
  if (ride.rider_id === driverId) throw forbidden('A driver cannot accept a ride they booked', 'OWN_RIDE');
}

/** Pickup, completion and positions: the ride's driver, or an admin. */
export function assertDriverOf(user: AuthUser, ride: RideParties, action: string): void {
  if (ride.driver_id !== user.id && !isAdmin(user)) throw forbidden(`Only the ride's driver can ${action}`);
}

/** Pickup and completion need a driver (or admin) and the ride in the state the step starts from. */
export function assertStep(user: AuthUser, ride: RideParties & { id: number; status: string }, from: RideStatus, to: RideStatus): void {
  if (user.role !== 'DRIVER' && !isAdmin(user)) throw forbidden(`Only the ride's driver can move it to ${to}`);
  if (ride.status !== from) throw conflict(`Ride ${ride.id} is ${ride.status}; ${to} needs ${from}`, 'INVALID_TRANSITION');
  assertDriverOf(user, ride, `move it to ${to}`);
}

/** Who is cancelling, which decides the fee; anyone else may not. */
export function cancelledBy(user: AuthUser, ride: RideParties): CancelledBy {
  if (ride.rider_id === user.id) return 'rider';
  if (ride.driver_id === user.id) return 'driver';
  if (isAdmin(user)) return 'admin';
  throw forbidden("Only the ride's rider or driver can cancel it");
}

/** An operator moving a ride on for its rider or driver: an action the audit trail records. */
export function actsAsOperator(user: AuthUser, ride: RideParties): boolean {
  return isAdmin(user) && ride.rider_id !== user.id && ride.driver_id !== user.id;
}

/** The rider rates the driver, the driver rates the rider. */
export function feedbackParty(user: AuthUser, ride: RideParties): 'rider' | 'driver' {
  if (ride.rider_id === user.id) return 'rider';
  if (ride.driver_id === user.id) return 'driver';
  throw forbidden("Only the ride's rider or driver can give feedback");
}
