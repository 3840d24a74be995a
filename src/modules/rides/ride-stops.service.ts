import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import { assertDriverOf } from './ride-access.ts';
import { stopsOf, waitingAt, type StoredStop } from './ride-stops.ts';
import type { RideUpdates } from './ride-updates.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { RideRow, RideSnapshot } from './rides.repository.ts';
import type { Ride } from './rides.schemas.ts';
import { changeStops } from './trip.repository.ts';

/** A position this far from the stop the ride waits at means the ride has left it: the waiting there ends. */
export const LEFT_STOP_KM = 0.2;

/**
 * The driver's marks at the ride's stops (POST /rides/{id}/stops/{index}/arrived, while PICKED, in
 * order) and the end of each wait: the next mark, the first position more than 200 m from the stop,
 * or the drop. Each write is conditional on the stops read, so two marks (or a mark and a position
 * on another instance) cannot both apply to one version; the rider hears of each at once.
 */
export class RideStops {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #updates: Pick<RideUpdates, 'announce'>;
  readonly #clock: Clock;

  constructor(deps: { db: Db; transactions: Transactions; updates: Pick<RideUpdates, 'announce'>; clock: Clock }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#updates = deps.updates;
    this.#clock = deps.clock;
  }

  /** The stop `index` (from 0) is reached; marking it again answers the ride as it is. */
  async arrived(user: AuthUser, id: number, index: number): Promise<Ride> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const ride = await repository.findRide(this.#db, id);
      if (!ride) throw notFound(`Ride ${id} not found`);
      assertDriverOf(user, ride, 'mark its stops');
      const stops = stopsOf(ride);
      if (index >= stops.length) throw notFound(`Ride ${id} has ${stops.length} stops; stop ${index} is not one of them (they count from 0)`, 'STOP_NOT_FOUND');
      if (stops[index].reachedAt !== null) return toRide(ride);
      if (ride.status !== 'PICKED') throw conflict(`Ride ${id} is ${ride.status}; stops are reached while it is PICKED`, 'RIDE_NOT_PICKED');
      if (index > 0 && stops[index - 1].reachedAt === null) throw conflict(`Stop ${index - 1} comes first: stops are reached in order`, 'STOP_OUT_OF_ORDER');
      const now = this.#clock.now();
      // Reaching a stop leaves the one waited at before, if the ride had not left it yet.
      const marked = stops.map((stop, i): StoredStop => (i === index ? { ...stop, reachedAt: now } : stop.reachedAt !== null && stop.leftAt === null ? { ...stop, leftAt: now } : stop));
      const updated = await this.#write(ride, marked);
      if (updated) return toRide(updated);
    }
    throw conflict(`Ride ${id} changed while the stop was being marked; try again`, 'RIDE_CHANGED');
  }

  /** On every position of a PICKED ride's driver: the first one far enough from the stop waited at ends the wait. */
  onPosition(ride: RideSnapshot, position: Point): Promise<void> | undefined {
    if (ride.status !== 'PICKED' || ride.stops === '[]') return undefined;
    const stops = stopsOf(ride);
    const at = waitingAt(stops);
    if (at < 0 || haversineKm(position, stops[at]) <= LEFT_STOP_KM) return undefined;
    const left = stops.map((stop, i) => (i === at ? { ...stop, leftAt: this.#clock.now() } : stop));
    // Lost to a mark or another instance's position: the stops moved on without this one.
    return this.#write(ride, left).then(() => undefined);
  }

  #write(ride: Pick<RideRow, 'id' | 'stops'>, stops: StoredStop[]): Promise<RideRow | undefined> {
    return this.#transactions.run(async (tx) => {
      const row = await changeStops(tx.db, ride.id, ride.stops, JSON.stringify(stops));
      if (row) tx.afterCommit(() => this.#updates.announce(row, 'PICKED'));
      return row;
    });
  }
}
