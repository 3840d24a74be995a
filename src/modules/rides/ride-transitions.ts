import type { Updateable } from 'kysely';
import type { RidesTable } from '../../db/database.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { Ride, RideStatus } from './rides.schemas.ts';

/** A status a ride moves to after booking. */
export type Step = Exclude<RideStatus, 'REQUESTED'>;

export type Changes = Updateable<RidesTable> & { status: Step };

export interface StepOptions {
  /** The statement (the plain conditional update unless a step needs more conditions). */
  update?: (tx: Tx) => Promise<repository.RideRow | undefined>;
  /** An operator taking the step for the ride's rider or driver: audited in the step's transaction. */
  operator?: Actor;
}

/** The audit trail's verb for each step. */
const AUDITED_AS: Record<Step, string> = { ACCEPTED: 'ride.accept', PICKED: 'ride.pickup', COMPLETED: 'ride.complete', CANCELLED: 'ride.cancel' };

/** What an audit entry keeps of a ride: its state, never places or names. */
const auditState = (ride: Ride) => ({
  status: ride.status,
  driverId: ride.driverId,
  acceptedAt: ride.acceptedAt,
  pickedAt: ride.pickedAt,
  completedAt: ride.completedAt,
  cancelledAt: ride.cancelledAt,
  cancelledBy: ride.cancelledBy,
  cancellationReason: ride.cancellationReason,
  cancellationFee: ride.cancellationFee,
  paymentStatus: ride.paymentStatus,
});

export interface TransitionsDependencies {
  transactions: Transactions;
  notifications: Pick<NotificationsService, 'record'>;
  /** `ride.moving` inside the step's unit (other modules' work: refunds, offers), `ride.moved` after it. */
  events: DomainEventsDispatcher;
  drivers: Pick<DriversService, 'lastKnown'>;
  audit: AuditLog;
}

/**
 * The one way a ride changes status: a single conditional update from the status it was read in,
 * with its notifications, what other modules do in it (`ride.moving`) and, when an operator takes
 * the step, its audit entry in the same transaction, announced after commit (`ride.moved`). Every route to a step comes through here,
 * so an operator's step is audited whichever route it took.
 */
export class RideTransitions {
  readonly #deps: TransitionsDependencies;

  constructor(deps: TransitionsDependencies) {
    this.#deps = deps;
  }

  /** Moves the ride on, or answers undefined when it was no longer in the status it was read in. */
  async move(ride: repository.RideRow, changes: Changes, notices: (ride: repository.RideRow) => NewNotification[], options: StepOptions = {}): Promise<repository.RideRow | undefined> {
    await this.#keepLastPosition(ride, changes);
    return this.#deps.transactions.run((tx) => this.moveIn(tx, ride, changes, notices, options));
  }

  /** The same step inside a unit of work the caller runs (an erasure cancels the rider's rides in its own). */
  async moveIn(tx: Tx, ride: repository.RideRow, changes: Changes, notices: (ride: repository.RideRow) => NewNotification[], options: StepOptions = {}): Promise<repository.RideRow | undefined> {
    let updated = await (options.update ?? ((tx) => repository.transition(tx.db, ride.id, ride.status as RideStatus, changes)))(tx);
    if (!updated) return undefined;
    await this.#deps.notifications.record(tx, notices(updated));
    // Other modules' work in the step's unit (dispatch closes the offers, payments refund); a handler that changes the ride puts its new row back.
    const moving = { ride: updated, from: ride.status as RideStatus, operator: options.operator };
    await this.#deps.events.emit(tx, 'ride.moving', moving);
    updated = moving.ride;
    if (options.operator) {
      await this.#deps.audit.record(tx, {
        actor: options.operator,
        action: AUDITED_AS[changes.status],
        target: { type: 'ride', id: ride.id },
        before: auditState(toRide(ride)),
        after: auditState(toRide(updated)),
      });
    }
    await this.#deps.events.emit(tx, 'ride.moved', { ride: updated, from: ride.status as RideStatus });
    return updated;
  }

  /** A ride that ends keeps the driver's last position (the drivers module owns it; the ride records where it ended). */
  async #keepLastPosition(ride: repository.RideRow, changes: Changes): Promise<void> {
    if ((changes.status !== 'COMPLETED' && changes.status !== 'CANCELLED') || ride.driver_id === null) return;
    // During a Redis outage, the position PostgreSQL holds (driver_presence).
    const last = await this.#deps.drivers.lastKnown(ride.driver_id);
    if (last) Object.assign(changes, { driver_lat: last.lat, driver_lon: last.lon, driver_location_updated_at: last.updatedAt });
  }
}
