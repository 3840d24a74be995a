import type { Db } from '../../db/database.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { PricedRide } from '../pricing/compliance.ts';
import type { Point } from '../../platform/geo/geo.ts';
import * as repository from './ride-stats.repository.ts';

/** A ride request of a period and how it went (RideStats.requestsBetween). */
export interface PeriodRequest {
  id: number;
  riderId: number;
  at: number;
  rideType: RideType;
  pickup: Point | null;
  drop: Point | null;
  waitEnded: number | null;
  /** When dispatch gave up looking (DISPATCH_MAX_SECONDS), if it did: a rider's cancellation after it is no sign of impatience. */
  noDriverAt: number | null;
  matched: boolean;
  /** A matched ride: when it was accepted and, if it was, completed (how long it held its driver). */
  acceptedAt: number | null;
  completedAt: number | null;
  /** The trip's driving minutes as quoted at booking. */
  durationMinutes: number;
  cancelledByRider: boolean;
  fare: number;
  surgeMultiplier: number;
  pricingVersion: number;
}

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
   * A period's requests as what-if replays read them: when each entered dispatch (a ride booked ahead
   * at its release), where from and to, and how its wait for a driver ended: matched, cancelled (by
   * its rider, or by an operator), nobody found, or still open (`waitEnded` null). Rides booked ahead
   * and not yet in dispatch are left out.
   */
  async requestsBetween(from: number, to: number, limit: number): Promise<PeriodRequest[]> {
    const rows = await repository.requestsBetween(this.#db, from, to, limit);
    return rows.flatMap((row) => {
      const at = row.scheduled_at === null ? row.created_at : row.released_at;
      if (at === null) return [];
      const waitEnded = row.accepted_at ?? row.cancelled_at ?? row.no_driver_at;
      return [{
        id: row.id,
        riderId: row.rider_id,
        at: Number(at),
        rideType: row.ride_type as RideType,
        pickup: row.pickup_lat === null || row.pickup_lon === null ? null : { lat: row.pickup_lat, lon: row.pickup_lon },
        drop: row.drop_lat === null || row.drop_lon === null ? null : { lat: row.drop_lat, lon: row.drop_lon },
        waitEnded: waitEnded === null ? null : Number(waitEnded),
        noDriverAt: row.no_driver_at === null ? null : Number(row.no_driver_at),
        matched: row.accepted_at !== null,
        acceptedAt: row.accepted_at === null ? null : Number(row.accepted_at),
        completedAt: row.completed_at === null ? null : Number(row.completed_at),
        durationMinutes: Number(row.duration_minutes),
        cancelledByRider: row.accepted_at === null && row.cancelled_at !== null && row.cancelled_by === 'rider',
        fare: Number(row.fare),
        surgeMultiplier: Number(row.surge_multiplier),
        pricingVersion: Number(row.pricing_version),
      }];
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
