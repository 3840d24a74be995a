import type { FastifyBaseLogger } from 'fastify';
import type { UserHub } from '../../events.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import { livePosition } from './ride-access.ts';
import type { RidePeople } from './ride-people.ts';
import type { RideSnapshots } from './ride-snapshots.ts';
import { toRide } from './ride-views.ts';
import type { RideRow } from './rides.repository.ts';
import type { RideStatus } from './rides.schemas.ts';

/**
 * The rides module's reaction to a committed change of a ride (`ride.booked`, `ride.moved`): every
 * instance forgets what it remembered of the ride, and its rider and driver get their view of it
 * over the realtime channel.
 */
export class RideUpdates {
  readonly #snapshots: RideSnapshots;
  readonly #hub: UserHub;
  readonly #drivers: Pick<DriversService, 'lastKnown'>;
  readonly #people: RidePeople;
  readonly #log: FastifyBaseLogger;
  /** Per ride, its latest announcement still under way. */
  readonly #sending = new Map<number, Promise<void>>();

  constructor(deps: { snapshots: RideSnapshots; hub: UserHub; drivers: Pick<DriversService, 'lastKnown'>; people: RidePeople; log: FastifyBaseLogger }) {
    this.#snapshots = deps.snapshots;
    this.#hub = deps.hub;
    this.#drivers = deps.drivers;
    this.#people = deps.people;
    this.#log = deps.log;
  }

  /**
   * A committed change: its new state, and the status it came from (null for a booking). Called
   * synchronously after each commit (an afterCommit handler is called at once), so the queue below
   * is in commit order.
   */
  announce(ride: RideRow, from: RideStatus | null): void {
    // A ride's announcements leave in commit order: one that waits on a slow Redis (a pickup's
    // position) must not let the next (the completion) overtake it and leave an app on PICKED.
    const sending = (this.#sending.get(ride.id) ?? Promise.resolve())
      .then(() => this.#announce(ride, from))
      .catch((error: unknown) => this.#failed(error, ride, 'not announced'));
    this.#sending.set(ride.id, sending);
    void sending.finally(() => {
      if (this.#sending.get(ride.id) === sending) this.#sending.delete(ride.id);
    });
  }

  /**
   * Each part on its own: a failure to drop snapshots elsewhere (they expire within seconds) or to
   * reach one party never keeps the other from hearing; the hub tells users whose message it could
   * not send to resync.
   */
  async #announce(ride: RideRow, from: RideStatus | null): Promise<void> {
    // A ride just booked is remembered nowhere yet: no instance has anything to forget.
    if (from !== null) await this.#snapshots.changed(ride).catch((error: unknown) => this.#failed(error, ride, 'other instances not told to forget it'));
    const rider = this.#hub.reaches(ride.rider_id);
    const driver = ride.driver_id !== null && this.#hub.reaches(ride.driver_id);
    if (!rider && !driver) return;
    // lastKnown falls back to the stored position itself; a ride view without a position (or without
    // who is coming, when their accounts cannot be read) still goes out.
    const [position, people] = await Promise.all([
      ride.driver_id !== null && livePosition(ride.status) ? this.#drivers.lastKnown(ride.driver_id).catch((error: unknown) => this.#failed(error, ride, 'sent without the driver’s position')) : undefined,
      this.#people.of([ride]).catch((error: unknown) => this.#failed(error, ride, 'sent without the names and the vehicle')),
    ]);
    // The same view as GET /rides/status/{id} with the user's token: names and the vehicle included.
    const view = { riderName: people?.riderName(ride), driver: people?.driver(ride), position };
    await Promise.all([
      rider && this.#hub.send(ride.rider_id, 'ride.updated', toRide(ride, { ...view, codes: 'both' })).catch((error: unknown) => this.#failed(error, ride, 'not sent to the rider')),
      driver && this.#hub.send(ride.driver_id!, 'ride.updated', toRide(ride, view)).catch((error: unknown) => this.#failed(error, ride, 'not sent to the driver')),
    ]);
  }

  #failed(error: unknown, ride: RideRow, what: string): undefined {
    this.#log.warn({ err: error, rideId: ride.id }, `ride change: ${what}`);
    return undefined;
  }
}
