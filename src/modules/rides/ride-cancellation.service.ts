import type { Db } from '../../db/database.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { cancelledBy } from './ride-access.ts';
import { rideCancelled } from './ride-notifications.ts';
import type { RideTransitions } from './ride-transitions.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { CancelledBy, Ride } from './rides.schemas.ts';
import { cancellationFee } from '../pricing/pricing.model.ts';
import type { Pricing } from '../pricing/pricing.service.ts';

/** Either cancel path (POST /rides/cancel and status CANCELLED) and the operator's; one fee rule. */
export class RideCancellation {
  readonly #db: Db;
  readonly #transitions: RideTransitions;
  readonly #pricing: Pick<Pricing, 'rules'>;
  readonly #clock: Clock;

  constructor(deps: { db: Db; transitions: RideTransitions; pricing: Pick<Pricing, 'rules'>; clock: Clock }) {
    this.#db = deps.db;
    this.#transitions = deps.transitions;
    this.#pricing = deps.pricing;
    this.#clock = deps.clock;
  }

  /** The fee follows the state the ride was in when the cancellation won. */
  async cancel(user: AuthUser, id: number, reason: string | null | undefined): Promise<Ride> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const ride = await repository.findRide(this.#db, id);
      if (!ride) throw notFound(`Ride ${id} not found`);
      const by: CancelledBy = cancelledBy(user, ride);
      if (ride.status === 'COMPLETED' || ride.status === 'CANCELLED') {
        throw conflict(`Ride ${id} is already ${ride.status} and cannot be cancelled`, 'RIDE_FINISHED');
      }
      const cancelled = await this.#transitions.move(
        ride,
        {
          status: 'CANCELLED',
          cancelled_at: this.#clock.now(),
          cancellation_reason: reason ?? '',
          cancelled_by: by,
          // The rule of the pricing version the ride was booked under.
          cancellation_fee: cancellationFee(ride.status, by === 'rider', ride.fare, await this.#pricing.rules(ride.pricing_version)),
        },
        (updated) => rideCancelled(updated, by),
      );
      if (cancelled) return toRide(cancelled);
      // The ride moved on between reading and cancelling; decide again on its new state.
    }
    throw conflict(`Ride ${id} changed while it was being cancelled; try again`, 'RIDE_CHANGED');
  }
}
