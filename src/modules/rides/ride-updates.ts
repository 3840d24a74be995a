import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/transaction.ts';
import type { UserHub } from '../../events.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import { livePosition } from './ride-access.ts';
import type { RideSnapshots } from './ride-snapshots.ts';
import { toRide } from './ride-views.ts';
import type { RideRow } from './rides.repository.ts';
import type { RideStatus } from './rides.schemas.ts';

/**
 * What follows a committed change of a ride: every instance forgets what it remembered of the
 * ride, and its rider and driver get their view of it over the realtime channel.
 */
export class RideUpdates {
  readonly #listeners: Array<(ride: RideRow, from: RideStatus | null) => void> = [];
  readonly #snapshots: RideSnapshots;
  readonly #hub: UserHub;
  readonly #drivers: Pick<DriversService, 'lastKnown'>;
  readonly #log: FastifyBaseLogger;

  constructor(deps: { snapshots: RideSnapshots; hub: UserHub; drivers: Pick<DriversService, 'lastKnown'>; log: FastifyBaseLogger }) {
    this.#snapshots = deps.snapshots;
    this.#hub = deps.hub;
    this.#drivers = deps.drivers;
    this.#log = deps.log;
  }

  /**
   * Hears every committed change of a ride on this instance: its new state, and the status it came
   * from (null for a booking; the same status for a change that kept it, like "no driver found").
   */
  onChange(listener: (ride: RideRow, from: RideStatus | null) => void): void {
    this.#listeners.push(listener);
  }

  announce(tx: Tx, ride: RideRow, from: RideStatus | null): void {
    tx.afterCommit(() => {
      for (const listener of this.#listeners) listener(ride, from);
      void this.#announce(ride, from);
    });
  }

  async #announce(ride: RideRow, from: RideStatus | null): Promise<void> {
    try {
      // A ride just booked is remembered nowhere yet: no instance has anything to forget.
      if (from !== null) await this.#snapshots.changed(ride);
      const rider = this.#hub.reaches(ride.rider_id);
      const driver = ride.driver_id !== null && this.#hub.reaches(ride.driver_id);
      if (!rider && !driver) return;
      const position = ride.driver_id !== null && livePosition(ride.status) ? await this.#drivers.lastKnown(ride.driver_id) : undefined;
      if (rider) await this.#hub.send(ride.rider_id, 'ride.updated', toRide(ride, { position, codes: 'both' }));
      if (driver) await this.#hub.send(ride.driver_id!, 'ride.updated', toRide(ride, { position }));
    } catch (error) {
      this.#log.warn({ err: error, rideId: ride.id }, 'ride change not announced everywhere');
    }
  }
}
