import type { DomainEventsDispatcher } from '../../events.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { noDriverFound } from './ride-notifications.ts';
import * as repository from './rides.repository.ts';

/** An open request as dispatch sees it. */
export interface OpenRequest {
  id: number;
  riderId: number;
  rideType: RideType;
  fare: number;
  pickup: Point;
  pickupZone: string | null;
  /** When it began looking for a driver: its booking, or for a ride booked ahead, its entry into dispatch (ride-schedule.ts). */
  searchingSince: number;
}

/** What the dispatch module needs of rides, and what it records on them (rides own their rows). */
export class RideDispatch {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #notifications: Pick<NotificationsService, 'record'>;
  readonly #events: DomainEventsDispatcher;

  constructor(deps: { db: Db; transactions: Transactions; notifications: Pick<NotificationsService, 'record'>; events: DomainEventsDispatcher }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#notifications = deps.notifications;
    this.#events = deps.events;
  }

  /** The `limit` open requests waiting longest, oldest first. */
  async openRequests(limit: number): Promise<OpenRequest[]> {
    const rows = await repository.listDispatchable(this.#db, limit);
    return rows.map((row) => ({
      id: row.id,
      riderId: row.rider_id,
      rideType: row.ride_type as RideType,
      fare: row.fare,
      pickup: { lat: row.pickup_lat!, lon: row.pickup_lon! },
      pickupZone: row.pickup_zone,
      searchingSince: row.released_at ?? row.created_at,
    }));
  }

  /** Inside the transaction that made an offer of the ride. */
  recordOffer(tx: Tx, rideId: number, at: number): Promise<void> {
    return repository.countOffer(tx.db, rideId, at);
  }

  /** Inside the accept's transaction: how far the driver was from the pickup point; the ride as it is now. */
  recordPickupDistance(tx: Tx, rideId: number, km: number): Promise<repository.RideRow> {
    return repository.setPickupDistance(tx.db, rideId, Math.round(km * 1000) / 1000);
  }

  /** Tells the rider (once) that no driver was found; the ride stays REQUESTED. */
  async noDriverFound(rideId: number, now: number): Promise<boolean> {
    return this.#transactions.run(async (tx) => {
      const ride = await repository.markNoDriver(tx.db, rideId, now);
      if (!ride) return false;
      await this.#notifications.record(tx, [noDriverFound(ride)]);
      await this.#events.emit(tx, 'ride.moved', { ride, from: 'REQUESTED' });
      return true;
    });
  }

  /** Which of these drivers are on a ride now (ACCEPTED or PICKED). */
  busyAmong(driverIds: readonly number[]): Promise<Set<number>> {
    return repository.busyDriversAmong(this.#db, driverIds);
  }

  /** Every driver on a ride now. */
  busyDrivers(): Promise<Set<number>> {
    return repository.busyDrivers(this.#db);
  }
}
