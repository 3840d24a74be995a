import type { Db } from '../../db/database.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { PricedRide } from '../pricing/compliance.ts';
import * as repository from './ride-stats.repository.ts';

/**
 * Counts over the rides table as it is now, read from indexed columns at every call: the live side of
 * insights' demand model and the operators' overview. Insights asks for them through its own
 * `RideActivity` port, so it imports nothing of rides.
 */
export class RideStats {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Rides in REQUESTED now (and the distinct riders holding them), and drivers on a ride now. */
  async live(): Promise<{ openRequests: number; openRiders: number; busyDrivers: number }> {
    const [open, busyDrivers] = await Promise.all([repository.openRequests(this.#db), repository.countBusyDrivers(this.#db)]);
    return { openRequests: open.rides, openRiders: open.riders, busyDrivers };
  }

  /** Rides booked ahead still waiting for their time (not yet in dispatch), and how many a driver took ahead. */
  bookedAhead(): Promise<{ waiting: number; taken: number }> {
    return repository.bookedAhead(this.#db);
  }

  /** Rides booked since `since` per status now, with their fares: the operators' day. */
  bookedSince(since: number): ReturnType<typeof repository.bookedSince> {
    return repository.bookedSince(this.#db, since);
  }

  /** How long riders waited for a driver (rides accepted since `since`) and for the pickup (rides picked up since then). */
  waitsSince(since: number): ReturnType<typeof repository.waitsSince> {
    return repository.waitsSince(this.#db, since);
  }

  /** Drivers who accepted, finished or lost a ride since `since`, or are on one now. */
  driversActiveSince(since: number): Promise<number[]> {
    return repository.driversActiveSince(this.#db, since);
  }

  /** Rides booked in [from, to) as a compliance check reads them, a page at a time after `afterId`. */
  /**
   * How long each request of a period waited for a driver, and whether its rider gave up meanwhile
   * (what-if replays fit riders' patience to it). Rides still waiting, or booked ahead and not yet in
   * dispatch, are left out; a ride booked ahead waited from its release.
   */
  async requestWaitsBetween(from: number, to: number, limit: number): Promise<Array<{ waitedMinutes: number; cancelled: boolean }>> {
    const rows = await repository.requestWaitsBetween(this.#db, from, to, limit);
    return rows.flatMap((row) => {
      const start = row.scheduled_at === null ? row.created_at : row.released_at;
      // Matched, cancelled (by the rider, or by an operator: then the rider's patience is not what ended it), or nobody found.
      const end = row.accepted_at ?? row.cancelled_at ?? row.no_driver_at;
      const cancelled = row.accepted_at === null && row.cancelled_at !== null && row.cancelled_by === 'rider';
      if (start === null || end === null) return [];
      return [{ waitedMinutes: Math.max(0, Number(end) - Number(start)) / 60_000, cancelled }];
    });
  }

  async pricedBetween(from: number, to: number, afterId: number, limit: number): Promise<PricedRide[]> {
    const rows = await repository.pricedBetween(this.#db, from, to, afterId, limit);
    return rows.map((row) => ({
      id: row.id,
      rideType: row.ride_type as RideType,
      pricingVersion: row.pricing_version,
      fare: row.fare,
      surgeMultiplier: row.surge_multiplier,
      cancelledBy: row.cancelled_by,
      cancellationReason: row.cancellation_reason,
      cancellationFee: row.cancellation_fee,
      driverPenalty: row.driver_penalty,
    }));
  }
}
