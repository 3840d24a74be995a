import type { AuthUser } from '../../platform/auth/roles.ts';
import { conflict, forbidden } from '../../platform/errors.ts';
import type { Ride } from '../rides/rides.schemas.ts';

// Who may call whom on a ride, and when (decisions.md "Safety", masked contact): a pure function of the
// caller and the ride.

export interface CallParties {
  /** The other party's account, whose number the provider dials. */
  calleeId: number;
  callee: 'rider' | 'driver';
}

/** The ride's rider calls its driver and the driver the rider, while the ride is ACCEPTED or PICKED. */
export function callParties(user: AuthUser, ride: Pick<Ride, 'id' | 'status' | 'riderId' | 'driverId'>): CallParties {
  const isRider = ride.riderId === user.id;
  if (!isRider && (ride.driverId === null || ride.driverId !== user.id)) throw forbidden("Only the ride's rider or driver can call through it");
  if ((ride.status !== 'ACCEPTED' && ride.status !== 'PICKED') || ride.driverId === null) {
    throw conflict(`Ride ${ride.id} is ${ride.status}; calls connect while a driver is on the way or the trip runs`, 'RIDE_NOT_ACTIVE');
  }
  return isRider ? { calleeId: ride.driverId, callee: 'driver' } : { calleeId: ride.riderId, callee: 'rider' };
}
