import type { Updateable } from 'kysely';
import type { RidesTable } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import type { RideUpdates } from './ride-updates.ts';
import * as repository from './rides.repository.ts';
import type { RideStatus } from './rides.schemas.ts';

/** A status a ride moves to after booking. */
export type Step = Exclude<RideStatus, 'REQUESTED'>;

/**
 * Work another module does inside the transaction of a ride's step (payments refund a cancelled
 * ride, dispatch withdraws its offers), so the ride module never imports those modules. A hook that
 * changed the ride answers its new row, so the step's answer and announcement show the change.
 */
export type StepHook = (tx: Tx, ride: repository.RideRow) => Promise<repository.RideRow | void>;

export type Changes = Updateable<RidesTable> & { status: Step };

/**
 * The one way a ride changes status: a single conditional update from the status it was read in,
 * with its notifications and the other modules' hooks in the same transaction, announced after commit.
 */
export class RideTransitions {
  readonly #transactions: Transactions;
  readonly #notifications: Pick<NotificationsService, 'record'>;
  readonly #updates: RideUpdates;
  readonly #drivers: Pick<DriversService, 'lastKnown'>;
  readonly #hooks = new Map<Step, StepHook[]>();

  constructor(deps: { transactions: Transactions; notifications: Pick<NotificationsService, 'record'>; updates: RideUpdates; drivers: Pick<DriversService, 'lastKnown'> }) {
    this.#transactions = deps.transactions;
    this.#notifications = deps.notifications;
    this.#updates = deps.updates;
    this.#drivers = deps.drivers;
  }

  /** Runs `hook` inside the transaction of every step to `status`. */
  on(status: Step, hook: StepHook): void {
    this.#hooks.set(status, [...(this.#hooks.get(status) ?? []), hook]);
  }

  /**
   * Moves the ride on, or answers undefined when it was no longer in the status it was read in.
   * `update` is the statement (the plain conditional update unless a step needs more conditions).
   */
  async move(
    ride: repository.RideRow,
    changes: Changes,
    notices: (ride: repository.RideRow) => NewNotification[],
    update: (tx: Tx) => Promise<repository.RideRow | undefined> = (tx) => repository.transition(tx.db, ride.id, ride.status as RideStatus, changes),
  ): Promise<repository.RideRow | undefined> {
    // A ride that ends keeps the driver's last position (the drivers module owns it; the ride records where it ended).
    if ((changes.status === 'COMPLETED' || changes.status === 'CANCELLED') && ride.driver_id !== null) {
      // During a Redis outage, the position PostgreSQL holds (driver_presence).
      const last = await this.#drivers.lastKnown(ride.driver_id);
      if (last) Object.assign(changes, { driver_lat: last.lat, driver_lon: last.lon, driver_location_updated_at: last.updatedAt });
    }
    return this.#transactions.run(async (tx) => {
      let updated = await update(tx);
      if (!updated) return undefined;
      await this.#notifications.record(tx, notices(updated));
      for (const hook of this.#hooks.get(changes.status) ?? []) updated = (await hook(tx, updated)) ?? updated;
      this.#updates.announce(tx, updated, ride.status as RideStatus);
      return updated;
    });
  }
}
