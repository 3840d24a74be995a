import type { AuthUser } from '../../platform/auth/roles.ts';
import { conflict, forbidden } from '../../platform/errors.ts';
import type { Ride } from '../rides/rides.schemas.ts';
import type { ReporterParty } from './incidents.schemas.ts';
import { AFTER_END_MS, endedAt } from './share-links.ts';

// Who may raise an SOS and when, and where an emergency contact is reached: pure functions of the
// caller, the ride and the time (decisions.md "Safety").

/** The reporter's part in the ride: its rider or its driver (an operator is neither). */
export function reporterParty(user: AuthUser, ride: Pick<Ride, 'riderId' | 'driverId'>): ReporterParty {
  if (ride.riderId === user.id) return 'rider';
  if (ride.driverId !== null && ride.driverId === user.id) return 'driver';
  throw forbidden("Only the ride's rider or driver can raise an SOS on it");
}

/** An SOS is taken while the ride is ACCEPTED or PICKED, and up to 30 minutes after a ride with a driver ended. */
export function assertSosWindow(ride: Pick<Ride, 'id' | 'status' | 'driverId' | 'completedAt' | 'cancelledAt'>, now: number): void {
  if (ride.status === 'ACCEPTED' || ride.status === 'PICKED') return;
  const end = endedAt(ride);
  if (ride.driverId !== null && end !== null && now < end + AFTER_END_MS) return;
  throw conflict(`Ride ${ride.id} is ${ride.status}; an SOS is taken while a driver is on the way or the trip runs, and up to 30 minutes after it ended`, 'SOS_NOT_AVAILABLE');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators, a leading + allowed: 7 to 15 digits (E.164's most). */
const PHONE = /^\+?[\d\s().-]+$/;

/** How an emergency contact as typed in settings is reached: by e-mail, by phone, or not at all (a name alone). */
export function contactKind(contact: string): 'email' | 'phone' | null {
  const value = contact.trim();
  if (EMAIL.test(value)) return 'email';
  const digits = value.replace(/\D/g, '').length;
  if (PHONE.test(value) && digits >= 7 && digits <= 15) return 'phone';
  return null;
}
