import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { cancelledBy } from './ride-access.ts';
import { rideCancelled } from './ride-notifications.ts';
import { cancellationStatus } from './ride-schedule.ts';
import type { Changes, RideTransitions } from './ride-transitions.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { CancellationQuote, CancelledBy, Ride, RideStatus } from './rides.schemas.ts';
import { cancellationFee, driverPenalty } from '../pricing/pricing.model.ts';
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

  /** The fee follows the state the ride was in when the cancellation won; an operator's cancellation of someone else's ride is audited. */
  cancel(user: Actor, id: number, reason: string | null | undefined): Promise<Ride> {
    return this.#cancel(id, (ride) => cancelledBy(user, ride), reason ?? '', user);
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
    const fee = cancellationFee(cancellationStatus(ride, this.#clock.now()), by === 'rider', ride.fare, await this.#pricing.rules(ride.pricing_version));
    return { rideId: ride.id, status: ride.status as RideStatus, cancelledBy: by, cancellationFee: fee };
  }

  /** An operator's cancellation (POST /admin/rides/{id}/cancel): by `admin`, so no fee, whoever booked the ride; audited. */
  cancelAsOperator(actor: Actor, id: number, reason: string): Promise<Ride> {
    return this.#cancel(id, () => 'admin', reason, actor);
  }

  /**
   * Inside an erasure's unit of work: the erased rider's rides that are still open are cancelled by
   * `admin` (no fee, the driver told, a paid ride refunded), so their places leave every open list.
   */
  async cancelOpenOf(tx: Tx, riderId: number, reason: string): Promise<void> {
    for (const ride of await repository.openRidesOf(tx.db, riderId)) {
      await this.#transitions.moveIn(tx, ride, await this.#changes(ride, 'admin', reason), (updated) => rideCancelled(updated, 'admin'));
    }
  }

  async #cancel(id: number, party: (ride: repository.RideRow) => CancelledBy, reason: string, actor: Actor): Promise<Ride> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const ride = await repository.findRide(this.#db, id);
      if (!ride) throw notFound(`Ride ${id} not found`);
      const by = party(ride);
      if (ride.status === 'COMPLETED' || ride.status === 'CANCELLED') throw finished(ride);
      const cancelled = await this.#transitions.move(ride, await this.#changes(ride, by, reason), (updated) => rideCancelled(updated, by), {
        operator: by === 'admin' ? actor : undefined,
      });
      if (cancelled) return toRide(cancelled);
      // The ride moved on between reading and cancelling; decide again on its new state.
    }
    throw conflict(`Ride ${id} changed while it was being cancelled; try again`, 'RIDE_CHANGED');
  }

  async #changes(ride: repository.RideRow, by: CancelledBy, reason: string): Promise<Changes> {
    // The rules of the pricing version the ride was booked under; a valid reason waives the rider's fee and the driver's penalty.
    const rules = await this.#pricing.rules(ride.pricing_version);
    const waived = rules.validCancellationReasons.includes(reason);
    const now = this.#clock.now();
    const status = cancellationStatus(ride, now);
    return {
      status: 'CANCELLED',
      cancelled_at: now,
      cancellation_reason: reason,
      cancelled_by: by,
      cancellation_fee: waived ? null : cancellationFee(status, by === 'rider', ride.fare, rules),
      driver_penalty: by === 'driver' && !waived ? driverPenalty(status, ride.fare, rules) : null,
    };
  }
}

const finished = (ride: repository.RideRow) => conflict(`Ride ${ride.id} is already ${ride.status} and cannot be cancelled`, 'RIDE_FINISHED');
