import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { driverArriving } from './ride-notifications.ts';
import * as repository from './rides.repository.ts';
import type { RideSnapshot } from './rides.repository.ts';

/** A driver this close to the pickup point triggers the one DRIVER_ARRIVING notice. */
export const ARRIVING_DISTANCE_KM = 0.3;

/** The one DRIVER_ARRIVING notice of a ride: the first position of its driver within 300 m of the pickup claims it. */
export class ArrivalNotices {
  readonly #transactions: Transactions;
  readonly #notifications: Pick<NotificationsService, 'record'>;
  readonly #clock: Clock;

  constructor(deps: { transactions: Transactions; notifications: Pick<NotificationsService, 'record'>; clock: Clock }) {
    this.#transactions = deps.transactions;
    this.#notifications = deps.notifications;
    this.#clock = deps.clock;
  }

  /**
   * Tells the rider once, whichever instance sees the position first. A position that claims
   * nothing (nearly all of them) answers no promise: this runs for every report of a driver on a ride.
   */
  onPosition(ride: RideSnapshot, position: Point): Promise<void> | undefined {
    if (ride.status !== 'ACCEPTED' || ride.arriving_notified_at !== null || ride.pickup_lat === null || ride.pickup_lon === null) return undefined;
    if (haversineKm(position, { lat: ride.pickup_lat, lon: ride.pickup_lon }) > ARRIVING_DISTANCE_KM) return undefined;
    return this.#claim(ride);
  }

  async #claim(ride: RideSnapshot): Promise<void> {
    const now = this.#clock.now();
    await this.#transactions.run(async (tx) => {
      if (await repository.claimArrivingNotice(tx.db, ride.id, now)) await this.#notifications.record(tx, driverArriving(ride));
    });
    // Claimed here or elsewhere: either way, no more claims for this ride.
    ride.arriving_notified_at = now;
  }
}
