import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { plusCode } from '../../platform/geo/geo.ts';
import { point } from '../../platform/geo/request-point.ts';
import type { Router } from '../../platform/routing/router.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { quoteFare } from '../pricing/pricing.model.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import { assertBookable } from './booking.service.ts';
import { destinationChangesOf, type StoredChange } from './destination-change.ts';
import * as quotes from './destination-change.repository.ts';
import type { DestinationBody, DestinationQuote } from './destination-change.schemas.ts';
import { stopPoints, stopsOf } from './ride-stops.ts';
import type { RideUpdates } from './ride-updates.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { RideRow } from './rides.repository.ts';
import type { Ride, RideStatus } from './rides.schemas.ts';

/** How long a destination quote can be confirmed: long enough to read it, short enough that the trip it measured is still the one driven. */
export const DESTINATION_QUOTE_TTL_MS = 5 * 60_000;
const MINUTE_MS = 60_000;

export interface DestinationChangeDependencies {
  db: Db;
  transactions: Transactions;
  router: Pick<Router, 'route'>;
  pricing: Pick<Pricing, 'rules'>;
  updates: Pick<RideUpdates, 'announce'>;
  clock: Clock;
  /** SERVICE_TIMEZONE: whether the new drop falls in the night window. */
  timeZone: string;
  /** MAX_RIDE_KM. */
  maxRideKm: number;
}

/**
 * The rider changes where the ride goes while ACCEPTED or PICKED: a quote for the whole trip to the
 * new destination (from the pickup, or while PICKED the distance and minutes so far plus the route
 * from the last position counted, through the stops not yet reached), under the ride's pricing
 * version and surge; nothing changes until the rider confirms it, once, before it expires. The driver
 * hears of the change at once; the fare at completion follows the new route (pricing/trip-fare.ts).
 */
export class DestinationChanges {
  readonly #deps: DestinationChangeDependencies;

  constructor(deps: DestinationChangeDependencies) {
    this.#deps = deps;
  }

  async quote(user: AuthUser, id: number, body: DestinationBody): Promise<DestinationQuote> {
    const ride = await this.#ownRide(user, id);
    assertUnderWay(ride);
    const pickup = point(ride.pickup_lat, ride.pickup_lon, 'pickup');
    if (!pickup) throw conflict(`Ride ${id} was booked without a pickup point: there is no route to change`, 'RIDE_WITHOUT_ROUTE');
    const now = this.#deps.clock.now();
    const picked = ride.status === 'PICKED' && ride.picked_at !== null ? ride.picked_at : null;
    const stops = stopsOf(ride);
    const from = picked === null ? pickup : (point(ride.trip_last_lat, ride.trip_last_lon, 'trip') ?? pickup);
    const drop = { lat: body.lat, lon: body.lon };
    const [route, rules] = await Promise.all([this.#deps.router.route(from, drop, stopPoints(stops.filter((stop) => stop.reachedAt === null))), this.#deps.pricing.rules(ride.pricing_version)]);
    const soFar = picked === null ? { km: 0, minutes: 0 } : { km: ride.trip_distance_km, minutes: (now - picked) / MINUTE_MS };
    // While PICKED the trip began at the pickup: its expected drop (for the night window) is counted from there.
    const priced = quoteFare(
      {
        distanceKm: soFar.km + route.distanceKm,
        drivingMinutes: soFar.minutes + route.durationMinutes,
        rideType: ride.ride_type as RideType,
        surgeMultiplier: ride.surge_multiplier,
        pickupEtaMinutes: 0,
        now: picked ?? now,
        timeZone: this.#deps.timeZone,
        stops: stops.length,
      },
      rules,
      ride.pricing_version,
    );
    assertBookable(priced, this.#deps.maxRideKm);
    const row: quotes.QuoteRow = {
      id: randomUUID(),
      ride_id: ride.id,
      rider_id: ride.rider_id,
      drop_lat: drop.lat,
      drop_lon: drop.lon,
      drop_location: body.place ?? null,
      distance_km: priced.distanceKm,
      duration_minutes: priced.durationMinutes,
      fare: priced.fare,
      changes_before: destinationChangesOf(ride).length,
      created_at: now,
      expires_at: now + DESTINATION_QUOTE_TTL_MS,
      confirmed_at: null,
    };
    await this.#deps.transactions.run((tx) => quotes.insertQuote(tx.db, row));
    return {
      quoteId: row.id,
      rideId: ride.id,
      dropLat: row.drop_lat,
      dropLon: row.drop_lon,
      dropLocation: row.drop_location,
      distanceKm: row.distance_km,
      durationMinutes: row.duration_minutes,
      currency: 'INR',
      fare: row.fare,
      previousFare: ride.fare,
      expiresAt: toIso(row.expires_at),
    };
  }

  /** Applies the quote to the ride, once: a second confirmation, an expired quote or another ride's is refused. */
  async confirm(user: AuthUser, id: number, quoteId: string): Promise<Ride> {
    const ride = await this.#ownRide(user, id);
    const quote = await quotes.findQuote(this.#deps.db, quoteId);
    if (!quote || quote.ride_id !== ride.id) throw notFound(`Ride ${id} has no destination quote ${quoteId}`, 'QUOTE_NOT_FOUND');
    if (quote.confirmed_at !== null) throw conflict('This destination quote was confirmed already', 'QUOTE_USED');
    const now = this.#deps.clock.now();
    if (quote.expires_at <= now) throw conflict('This destination quote has expired; ask for a new one', 'QUOTE_EXPIRED');
    assertUnderWay(ride);
    const changes = destinationChangesOf(ride);
    if (changes.length !== quote.changes_before) throw conflict('The destination changed after this quote; ask for a new one', 'QUOTE_STALE');
    const change: StoredChange = {
      dropLat: quote.drop_lat,
      dropLon: quote.drop_lon,
      dropLocation: quote.drop_location,
      distanceKm: quote.distance_km,
      durationMinutes: quote.duration_minutes,
      fare: quote.fare,
      previousFare: ride.fare,
      previousDistanceKm: ride.distance_km,
      previousDurationMinutes: ride.duration_minutes,
      confirmedAt: now,
    };
    const updated = await this.#deps.transactions.run(async (tx) => {
      if (!(await quotes.claimQuote(tx.db, quote.id, now))) throw conflict('This destination quote was confirmed already', 'QUOTE_USED');
      const row = await quotes.applyChange(tx.db, id, ride.destination_changes, {
        drop_lat: quote.drop_lat,
        drop_lon: quote.drop_lon,
        drop_location: quote.drop_location,
        drop_plus_code: plusCode({ lat: quote.drop_lat, lon: quote.drop_lon }),
        drop_landmark: null,
        distance_km: quote.distance_km,
        duration_minutes: quote.duration_minutes,
        fare: quote.fare,
        destination_changes: JSON.stringify([...changes, change]),
      });
      // Rolled back with the claim: the quote stays unconfirmed for a ride that moved on meanwhile.
      if (!row) throw conflict(`Ride ${id} changed a moment ago; ask for a new quote`, 'RIDE_CHANGED');
      tx.afterCommit(() => this.#deps.updates.announce(row, row.status as RideStatus));
      return row;
    });
    return toRide(updated, { codes: 'both' });
  }

  async #ownRide(user: AuthUser, id: number): Promise<RideRow> {
    const ride = await repository.findRide(this.#deps.db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    if (ride.rider_id !== user.id) throw forbidden("Only the ride's rider can change its destination");
    return ride;
  }
}

function assertUnderWay(ride: Pick<RideRow, 'id' | 'status'>): void {
  if (ride.status !== 'ACCEPTED' && ride.status !== 'PICKED') {
    throw conflict(`Ride ${ride.id} is ${ride.status}; the destination changes while it is ACCEPTED or PICKED`, 'RIDE_NOT_ACTIVE');
  }
}
