import type { Updateable } from 'kysely';
import type { RidesTable } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import type { RideUpdates } from './ride-updates.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { Ride, RideStatus } from './rides.schemas.ts';

/** A status a ride moves to after booking. */
export type Step = Exclude<RideStatus, 'REQUESTED'>;

/**
 * Work another module does inside the transaction of a ride's step (payments refund a cancelled
 * ride, dispatch withdraws its offers), so the ride module never imports those modules. A hook that
 * changed the ride answers its new row, so the step's answer and announcement show the change.
 * `operator` is the operator who took the step for someone else (a refund names who caused it).
 */
export type StepHook = (tx: Tx, ride: repository.RideRow, operator: AuthUser | undefined) => Promise<repository.RideRow | void>;

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
  updates: RideUpdates;
  drivers: Pick<DriversService, 'lastKnown'>;
  audit: AuditLog;
}

/**
 * The one way a ride changes status: a single conditional update from the status it was read in,
 * with its notifications, the other modules' hooks and, when an operator takes the step, its audit
 * entry in the same transaction, announced after commit. Every route to a step comes through here,
 * so an operator's step is audited whichever route it took.
 */
export class RideTransitions {
  readonly #deps: TransitionsDependencies;
  readonly #hooks = new Map<Step, StepHook[]>();

  constructor(deps: TransitionsDependencies) {
    this.#deps = deps;
  }

  /** Runs `hook` inside the transaction of every step to `status`. */
  on(status: Step, hook: StepHook): void {
    this.#hooks.set(status, [...(this.#hooks.get(status) ?? []), hook]);
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
    for (const hook of this.#hooks.get(changes.status) ?? []) updated = (await hook(tx, updated, options.operator)) ?? updated;
    if (options.operator) {
      await this.#deps.audit.record(tx, {
        actor: options.operator,
        action: AUDITED_AS[changes.status],
        target: { type: 'ride', id: ride.id },
        before: auditState(toRide(ride)),
        after: auditState(toRide(updated)),
      });
    }
    this.#deps.updates.announce(tx, updated, ride.status as RideStatus);
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
