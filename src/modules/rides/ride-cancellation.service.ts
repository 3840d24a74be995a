import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { cancelledBy } from './ride-access.ts';
import { rideCancelled } from './ride-notifications.ts';
import type { Changes, RideTransitions } from './ride-transitions.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { CancellationQuote, CancelledBy, Ride, RideStatus } from './rides.schemas.ts';
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
  cancel(user: AuthUser, id: number, reason: string | null | undefined): Promise<Ride> {
    return this.#cancel(id, (ride) => cancelledBy(user, ride), reason ?? '');
  }

  /**
   * The fee a cancellation by this caller would charge now, by the same rule as the cancellation
   * itself; a ride that can no longer be cancelled is the same 409 the cancellation gives.
   */
  async quote(user: AuthUser, id: number): Promise<CancellationQuote> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    const by = cancelledBy(user, ride);
    if (ride.status === 'COMPLETED' || ride.status === 'CANCELLED') throw finished(ride);
    const fee = cancellationFee(ride.status, by === 'rider', ride.fare, await this.#pricing.rules(ride.pricing_version));
    return { rideId: ride.id, status: ride.status as RideStatus, cancelledBy: by, cancellationFee: fee };
  }

  /**
   * An operator's cancellation: by `admin`, so no fee, whoever booked the ride; `record` (the audit
   * entry) runs in the cancellation's transaction with the ride before and after.
   */
  cancelAsOperator(id: number, reason: string, record: (tx: Tx, before: Ride, after: Ride) => Promise<void>): Promise<Ride> {
    return this.#cancel(id, () => 'admin', reason, record);
  }

  async #cancel(id: number, party: (ride: repository.RideRow) => CancelledBy, reason: string, record?: (tx: Tx, before: Ride, after: Ride) => Promise<void>): Promise<Ride> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const ride = await repository.findRide(this.#db, id);
      if (!ride) throw notFound(`Ride ${id} not found`);
      const by = party(ride);
      if (ride.status === 'COMPLETED' || ride.status === 'CANCELLED') throw finished(ride);
      const changes: Changes = {
        status: 'CANCELLED',
        cancelled_at: this.#clock.now(),
        cancellation_reason: reason,
        cancelled_by: by,
        // The rule of the pricing version the ride was booked under.
        cancellation_fee: cancellationFee(ride.status, by === 'rider', ride.fare, await this.#pricing.rules(ride.pricing_version)),
      };
      const cancelled = await this.#transitions.move(
        ride,
        changes,
        (updated) => rideCancelled(updated, by),
        record &&
          (async (tx) => {
            const updated = await repository.transition(tx.db, ride.id, ride.status as RideStatus, changes);
            if (updated) await record(tx, toRide(ride), toRide(updated));
            return updated;
          }),
      );
      if (cancelled) return toRide(cancelled);
      // The ride moved on between reading and cancelling; decide again on its new state.
    }
    throw conflict(`Ride ${id} changed while it was being cancelled; try again`, 'RIDE_CHANGED');
  }
}

const finished = (ride: repository.RideRow) => conflict(`Ride ${ride.id} is already ${ride.status} and cannot be cancelled`, 'RIDE_FINISHED');
