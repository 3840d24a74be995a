import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import type { Router } from '../../platform/routing/router.ts';
import type { RideSnapshot } from './rides.repository.ts';
import * as trips from './trip.repository.ts';

/** A driver this close to the pickup has arrived: waiting at the pickup is measured from then. */
export const ARRIVED_DISTANCE_KM = 0.1;
/** Positions closer than this to the last one counted are not counted (GPS jitter would add up). */
export const TRIP_STEP_KM = 0.05;
/** Stretches between two positions longer than this are measured by the router (a gap in the reports). */
export const TRIP_GAP_KM = 0.5;
/** The points remembered per instance, so most positions need no read; forgotten wholesale beyond it. */
const REMEMBERED = 10_000;

/**
 * What the trip that happened needs from the driver's positions: the arrival at the pickup (ACCEPTED)
 * and the distance along the positions (PICKED), kept on the ride's row as they arrive. Only positions
 * that count write: one within 100 m of the pickup once, then one per 50 m moved while PICKED.
 */
export class TripMeter {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #router: Pick<Router, 'route'>;
  readonly #clock: Clock;
  /** Rides whose arrival is recorded, and each PICKED ride's last point counted: hints, checked by the writes. */
  readonly #arrived = new Set<number>();
  readonly #last = new Map<number, Point | null>();

  constructor(deps: { db: Db; transactions: Transactions; router: Pick<Router, 'route'>; clock: Clock }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#router = deps.router;
    this.#clock = deps.clock;
  }

  /** What the position changes of the trip; no promise when it changes nothing (most positions before the pickup). */
  onPosition(ride: RideSnapshot, position: Point): Promise<void> | undefined {
    if (ride.status === 'ACCEPTED') return this.#arrival(ride, position);
    if (ride.status === 'PICKED') return this.#distance(ride.id, position);
    return undefined;
  }

  /** The road distance of a stretch: straight for a short one, the router's across a gap. */
  async stretchKm(from: Point, to: Point): Promise<number> {
    const straight = haversineKm(from, to);
    if (straight <= TRIP_GAP_KM) return straight;
    return (await this.#router.route(from, to)).distanceKm;
  }

  #arrival(ride: RideSnapshot, position: Point): Promise<void> | undefined {
    if (this.#arrived.has(ride.id) || ride.pickup_lat === null || ride.pickup_lon === null) return undefined;
    if (haversineKm(position, { lat: ride.pickup_lat, lon: ride.pickup_lon }) > ARRIVED_DISTANCE_KM) return undefined;
    return this.#markArrived(ride.id);
  }

  async #markArrived(id: number): Promise<void> {
    await this.#transactions.run((tx) => trips.markArrived(tx.db, id, this.#clock.now()));
    this.#remember(this.#arrived, id);
  }

  async #distance(id: number, position: Point): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let last = this.#last.get(id);
      let from: Point | null;
      if (last === undefined) {
        const progress = await trips.tripProgress(this.#db, id);
        if (!progress) return;
        last = progress.last;
        from = progress.last ?? progress.pickup;
      } else {
        from = last ?? null;
      }
      // Before the first position, the trip starts at the pickup point (no pickup point: at this position).
      const start = from ?? position;
      if (last !== null && haversineKm(start, position) < TRIP_STEP_KM) return;
      const km = await this.stretchKm(start, position);
      if (await this.#transactions.run((tx) => trips.advanceTrip(tx.db, id, last, position, km))) {
        this.#remember(this.#last, id, position);
        return;
      }
      // Another instance counted a position meanwhile: read where it got to, once.
      this.#last.delete(id);
    }
  }

  #remember(into: Set<number> | Map<number, Point | null>, id: number, point?: Point): void {
    if (into.size >= REMEMBERED) into.clear();
    if (into instanceof Set) into.add(id);
    else into.set(id, point ?? null);
  }
}
