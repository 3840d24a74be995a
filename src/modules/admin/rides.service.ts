import type { Actor } from '../../platform/audit.ts';
import { badRequest } from '../../platform/errors.ts';
import { toPage } from '../../platform/pagination.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { ComplaintsService } from '../complaints/complaints.service.ts';
import type { OffersService } from '../dispatch/offers.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RideCancellation } from '../rides/ride-cancellation.service.ts';
import type { RideQueries } from '../rides/ride-queries.service.ts';
import type { Ride } from '../rides/rides.schemas.ts';
import type { AuditTrail } from './audit.ts';
import type { AdminRide, AdminRidesQuery } from './operations.schemas.ts';
import { rideTimeline } from './ride-timeline.ts';

export interface AdminRidesDependencies {
  rides: { queries: Pick<RideQueries, 'search' | 'find'>; cancellation: Pick<RideCancellation, 'cancelAsOperator'> };
  users: Pick<AuthService, 'findUsers'>;
  offers: Pick<OffersService, 'ofRide'>;
  payments: Pick<PaymentsService, 'historyOf'>;
  complaints: Pick<ComplaintsService, 'ofRide'>;
  audit: Pick<AuditTrail, 'about'>;
}

/** Operators' work on rides: search, one ride with its timeline, cancellation. */
export class AdminRides {
  readonly #deps: AdminRidesDependencies;

  constructor(deps: AdminRidesDependencies) {
    this.#deps = deps;
  }

  async list(query: AdminRidesQuery): Promise<{ items: Ride[]; nextCursor: string | null }> {
    const filters = { status: query.status, riderId: query.riderId, driverId: query.driverId, from: epoch(query.from, 'from'), to: epoch(query.to, 'to') };
    const { rides, nextCursor } = await this.#deps.rides.queries.search(filters, toPage(query));
    return { items: rides, nextCursor };
  }

  async detail(id: number): Promise<AdminRide> {
    const ride = await this.#deps.rides.queries.find(id);
    const [offers, money, complaints, users, steps] = await Promise.all([
      this.#deps.offers.ofRide(id),
      this.#deps.payments.historyOf(id),
      this.#deps.complaints.ofRide(id),
      this.#deps.users.findUsers(ride.driverId === null ? [] : [ride.driverId]),
      this.#deps.audit.about('ride', id),
    ]);
    const driverName = ride.driverId === null ? null : (users.get(ride.driverId)?.name ?? null);
    return { ...ride, driverName, timeline: rideTimeline(ride, offers, money, complaints, steps) };
  }

  /** By `admin`: no fee for the rider, both parties told; the cancellation audits itself. */
  cancel(actor: Actor, id: number, reason: string): Promise<Ride> {
    return this.#deps.rides.cancellation.cancelAsOperator(actor, id, reason.trim());
  }
}

// The schema checks the format; a value it lets through that JavaScript cannot place in time (a leap second) is refused here.
function epoch(iso: string | undefined, name: string): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw badRequest(`querystring/${name} must be a date-time JavaScript can read`);
  return ms;
}
