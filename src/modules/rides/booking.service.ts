import type { DomainEventsDispatcher } from '../../events.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import { haversineKm, plusCode } from '../../platform/geo/geo.ts';
import { MAX_ORDER_INR } from '../../platform/payment-provider.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import { parsePaymentMode, PAYMENT_MODES, type PaymentMode } from '../../platform/vocabulary.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { Quote } from '../pricing/pricing.model.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { point } from '../../platform/geo/request-point.ts';
import { rideTypeOf, type FareQuotes } from '../pricing/fare-quotes.ts';
import { makeRideCodes } from './ride-codes.ts';
import { bookedStops } from './ride-stops.ts';
import { rideRequested } from './ride-notifications.ts';
import { scheduledTime, type BookingWindow } from './ride-schedule.ts';
import { toRide } from './ride-views.ts';
import type { NewRide } from './booking.repository.ts';
import type { BookingWriter } from './booking-writer.ts';
import type { BookBody, Ride } from './rides.schemas.ts';

export interface BookingDependencies {
  writer: BookingWriter;
  quotes: FareQuotes;
  settings: Pick<SettingsService, 'paymentMethodOf'>;
  notifications: Pick<NotificationsService, 'row' | 'saved' | 'announce'>;
  events: DomainEventsDispatcher;
  clock: Clock;
  /** MAX_OPEN_RIDES_PER_RIDER. */
  maxOpenRides: number;
  /** MAX_RIDE_KM: the longest road distance from pickup to drop a booking may have. */
  maxRideKm: number;
  /** How soon and how far ahead a ride may be booked for (`scheduledAt`). */
  schedule: BookingWindow;
}

/** Booking: the server prices the trip and makes the codes; whatever else the client sends is ignored. */
export class BookingService {
  readonly #deps: BookingDependencies;

  constructor(deps: BookingDependencies) {
    this.#deps = deps;
  }

  async book(user: AuthUser, body: BookBody): Promise<Ride> {
    const pickup = point(body.pickupLat, body.pickupLon, 'pickup');
    const drop = point(body.dropLat, body.dropLon, 'drop');
    const rideType = rideTypeOf(body.rideType);
    const now = this.#deps.clock.now();
    const scheduledAt = scheduledTime(body.scheduledAt, now, this.#deps.schedule);
    const paymentMode = body.paymentMode === undefined ? await this.#defaultPaymentMode(user.id) : paymentModeOf(body.paymentMode);
    // No road is shorter than the straight line: a trip that is too long that way is not routed at all.
    if (pickup && drop) assertShortEnough(haversineKm(pickup, drop), this.#deps.maxRideKm);
    const stops = body.stops ?? [];
    if (stops.length > 0 && !(pickup && drop)) throw badRequest('Stops need pickupLat, pickupLon, dropLat and dropLon: the trip is routed through them');
    const quote = await this.#deps.quotes.trip(pickup, drop, rideType, stops, scheduledAt ?? undefined);
    assertBookable(quote, this.#deps.maxRideKm);
    const { startOtp, endOtp } = makeRideCodes();
    const ride: NewRide = {
      rider_id: user.id,
      driver_id: null,
      status: 'REQUESTED',
      ride_type: rideType,
      pickup_location: body.pickupLocation ?? null,
      drop_location: body.dropLocation ?? null,
      pickup_lat: pickup?.lat ?? null,
      pickup_lon: pickup?.lon ?? null,
      drop_lat: drop?.lat ?? null,
      drop_lon: drop?.lon ?? null,
      pickup_plus_code: pickup ? plusCode(pickup) : null,
      drop_plus_code: drop ? plusCode(drop) : null,
      pickup_zone: pickup ? zoneOf(pickup) : null,
      pickup_landmark: body.pickupLandmark ?? null,
      drop_landmark: body.dropLandmark ?? null,
      distance_km: quote.distanceKm,
      duration_minutes: quote.durationMinutes,
      surge_multiplier: quote.surgeMultiplier,
      pricing_version: quote.pricingVersion,
      fare: quote.fare,
      payment_mode: paymentMode,
      payment_status: 'PENDING',
      payment_reference: null,
      start_otp: startOtp,
      end_otp: endOtp,
      created_at: now,
      stops: bookedStops(stops),
      scheduled_at: scheduledAt,
    };
    const notice = this.#deps.notifications.row(
      rideRequested({ rider_id: user.id, pickup_location: ride.pickup_location ?? null, drop_location: ride.drop_location ?? null, fare: quote.fare, scheduled_at: scheduledAt }),
    );
    // On PostgreSQL two bookings of one rider on two instances can pick the same free slot; the loser tries once more.
    for (let attempt = 0; attempt < 2; attempt++) {
      const booked = await this.#deps.writer.write({ ride, notice }, async (tx, saved) => {
        this.#deps.notifications.announce(tx, [this.#deps.notifications.saved({ ...notice, ride_id: saved.ride.id }, saved.noticeId)]);
        await this.#deps.events.emit(tx, 'ride.booked', { ride: saved.ride });
      });
      if (booked) return toRide(booked, { codes: 'both' });
    }
    throw conflict(`You have ${this.#deps.maxOpenRides} open rides; finish or cancel one before booking another`, 'TOO_MANY_OPEN_RIDES');
  }

  async #defaultPaymentMode(riderId: number): Promise<PaymentMode> {
    return parsePaymentMode(await this.#deps.settings.paymentMethodOf(riderId)) ?? 'UPI';
  }
}

/**
 * A booking is a trip across a city, paid by the rider: its road distance is at most MAX_RIDE_KM, and
 * its fare, under whatever prices are in force, at most what one online payment may be.
 */
export function assertBookable(quote: Pick<Quote, 'distanceKm' | 'fare'>, maxRideKm: number): void {
  assertShortEnough(quote.distanceKm, maxRideKm);
  if (quote.fare > MAX_ORDER_INR) {
    throw badRequest(`This ride would cost ₹${quote.fare}, more than the ₹${MAX_ORDER_INR} a ride may cost`, 'FARE_TOO_HIGH');
  }
}

function assertShortEnough(distanceKm: number, maxRideKm: number): void {
  if (distanceKm > maxRideKm) {
    throw badRequest(`A ride goes at most ${maxRideKm} km from pickup to drop by road; this one is ${Math.round(distanceKm * 100) / 100} km`, 'RIDE_TOO_LONG');
  }
}

function paymentModeOf(value: string): PaymentMode {
  const mode = parsePaymentMode(value);
  if (!mode) throw badRequest(`paymentMode must be one of ${PAYMENT_MODES.join(', ')}`);
  return mode;
}
