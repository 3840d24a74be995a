import type { Db } from '../../db/database.ts';
import type { ServiceBus } from '../../events.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Clock } from '../../platform/clock.ts';
import * as repository from './rides.repository.ts';
import type { RideRow, RideSnapshot } from './rides.repository.ts';

/** How long a snapshot serves status reads and position reports without asking the database. */
export const SNAPSHOT_TTL_MS = 5_000;
const SNAPSHOTS_MAX = 100_000;

/**
 * Recently read rides, so public status and position reports read no database. Any change of a
 * ride drops its snapshot here at once and, through the event bus, on every other instance; a
 * snapshot never lives longer than SNAPSHOT_TTL_MS (the bound if an event is lost).
 */
export class RideSnapshots {
  readonly #db: Db;
  readonly #bus: ServiceBus;
  readonly #clock: Clock;
  readonly #kept = new BoundedMap<number, { ride: RideSnapshot; until: number }>(SNAPSHOTS_MAX);
  /** Driver id → the ride they are on (null: none), for positions that arrive without a ride id. */
  readonly #activeRide = new BoundedMap<number, { rideId: number | null; until: number }>(SNAPSHOTS_MAX);

  constructor(db: Db, bus: ServiceBus, clock: Clock) {
    this.#db = db;
    this.#bus = bus;
    this.#clock = clock;
  }

  /** Starts forgetting rides that change on other instances. */
  listen(): Promise<void> {
    return this.#bus.subscribe('ride.changed', (change) => this.#forget(change));
  }

  async get(id: number): Promise<RideSnapshot | undefined> {
    const now = this.#clock.now();
    const known = this.#kept.get(id);
    if (known && known.until > now) return known.ride;
    const ride = await repository.findRideSnapshot(this.#db, id);
    this.#kept.delete(id);
    if (ride) this.#kept.set(id, { ride, until: now + SNAPSHOT_TTL_MS });
    return ride;
  }

  /** The ride the driver is on now (ACCEPTED or PICKED), if any. */
  async activeRideOf(driverId: number): Promise<RideSnapshot | undefined> {
    const now = this.#clock.now();
    const known = this.#activeRide.get(driverId);
    let rideId = known && known.until > now ? known.rideId : undefined;
    if (rideId === undefined) {
      rideId = (await repository.findActiveRideId(this.#db, driverId)) ?? null;
      this.#activeRide.delete(driverId);
      this.#activeRide.set(driverId, { rideId, until: now + SNAPSHOT_TTL_MS });
    }
    return rideId === null ? undefined : this.get(rideId);
  }

  /** Drops the ride here and on every instance (after its change committed). */
  changed(ride: Pick<RideRow, 'id' | 'driver_id' | 'status'>): Promise<void> {
    const change = { rideId: ride.id, driverId: ride.driver_id, status: ride.status };
    this.#forget(change);
    return this.#bus.publish('ride.changed', change);
  }

  #forget({ rideId, driverId }: { rideId: number; driverId: number | null }): void {
    this.#kept.delete(rideId);
    if (driverId !== null) this.#activeRide.delete(driverId);
  }
}
