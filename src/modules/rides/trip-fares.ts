import type { Clock } from '../../platform/clock.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { FareBreakdown, TripCharge } from '../pricing/pricing.schemas.ts';
import { tripFare } from '../pricing/trip-fare.ts';
import type { RideRow } from './rides.repository.ts';
import { bookedFare, destinationReason } from './destination-change.ts';
import { stopsOf, stopWaits } from './ride-stops.ts';
import type { TripMeter } from './trip-meter.ts';

const MINUTE_MS = 60_000;

/** A ride's charges as its row keeps them (JSON). */
export const chargesOf = (ride: Pick<RideRow, 'trip_charges'>): TripCharge[] => JSON.parse(ride.trip_charges) as TripCharge[];

/** A completed ride's breakdown as its row keeps it (JSON), or null before completion (and for rides completed before it was kept). */
export const breakdownOf = (ride: Pick<RideRow, 'fare_breakdown'>): FareBreakdown | null => (ride.fare_breakdown === null ? null : (JSON.parse(ride.fare_breakdown) as FareBreakdown));

/**
 * The fare at completion, from the trip that happened (pricing/trip-fare.ts): the distance counted
 * along the driver's positions plus the last stretch to the drop, the minutes from pickup to drop,
 * the wait from arrival to pickup and at each stop, the charges, the drop time for the night window.
 */
export class TripFares {
  readonly #pricing: Pick<Pricing, 'rules'>;
  readonly #meter: Pick<TripMeter, 'stretchKm'>;
  readonly #clock: Clock;
  readonly #timeZone: string;
  readonly #tolerance: number;

  constructor(deps: { pricing: Pick<Pricing, 'rules'>; meter: Pick<TripMeter, 'stretchKm'>; clock: Clock; timeZone: string; tolerance: number }) {
    this.#pricing = deps.pricing;
    this.#meter = deps.meter;
    this.#clock = deps.clock;
    this.#timeZone = deps.timeZone;
    this.#tolerance = deps.tolerance;
  }

  /** What completing a PICKED ride now writes: the fare, the upfront quote kept beside it, the breakdown. */
  async completion(ride: RideRow): Promise<{ completed_at: number; fare: number; upfront_fare: number; fare_breakdown: string; stops: string }> {
    const now = this.#clock.now();
    const rules = await this.#pricing.rules(ride.pricing_version);
    const drop = ride.drop_lat === null || ride.drop_lon === null ? null : { lat: ride.drop_lat, lon: ride.drop_lon };
    const last = ride.trip_last_lat === null || ride.trip_last_lon === null ? null : { lat: ride.trip_last_lat, lon: ride.trip_last_lon };
    const pickup = ride.pickup_lat === null || ride.pickup_lon === null ? null : { lat: ride.pickup_lat, lon: ride.pickup_lon };
    // From the last position counted (or the pickup, without one) to the drop point.
    const from = last ?? pickup;
    const lastStretch = from && drop ? await this.#meter.stretchKm(from, drop) : 0;
    const pickedAt = ride.picked_at ?? now;
    const stops = stopsOf(ride);
    const upfrontFare = bookedFare(ride);
    const breakdown = tripFare(
      {
        rideType: ride.ride_type as RideType,
        pricingVersion: ride.pricing_version,
        upfront: { distanceKm: ride.distance_km, durationMinutes: ride.duration_minutes, surgeMultiplier: ride.surge_multiplier, fare: upfrontFare },
        destinationReason: destinationReason(ride),
        trip: { distanceKm: ride.trip_distance_km + lastStretch, minutes: Math.ceil((now - pickedAt) / MINUTE_MS) },
        waitedMinutes: ride.arrived_at === null ? 0 : Math.max(0, pickedAt - ride.arrived_at) / MINUTE_MS,
        stops: stops.length,
        stopWaitedMinutes: stopWaits(stops, now),
        charges: chargesOf(ride),
        dropAt: now,
        timeZone: this.#timeZone,
        tolerance: this.#tolerance,
      },
      rules,
    );
    // The drop leaves the stop the ride still waited at.
    const left = stops.map((stop) => (stop.reachedAt !== null && stop.leftAt === null ? { ...stop, leftAt: now } : stop));
    return { completed_at: now, fare: breakdown.fare, upfront_fare: upfrontFare, fare_breakdown: JSON.stringify(breakdown), stops: JSON.stringify(left) };
  }
}
