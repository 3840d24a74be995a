import { Type, type Static } from 'typebox';
import { Latitude, Longitude, Nullable, OptionalText, OptionalTimestamp } from '../../platform/schemas.ts';
import { MAX_STOPS } from '../pricing/pricing.model.ts';

// Stops between pickup and drop (decisions.md "Scheduled rides, stops and changes"): what a booking
// sends, and what every view of the ride shows of them, in order.

const PLACE_MAX = 200;

/** A stop as a booking names it. */
export const StopBody = Type.Object({ lat: Latitude, lon: Longitude, place: OptionalText(PLACE_MAX) });

export const BookingStops = Type.Optional(
  Type.Array(StopBody, { maxItems: MAX_STOPS, description: `Up to ${MAX_STOPS} stops between pickup and drop, in order: the route goes through them and each adds the ride type's perStop` }),
);

/** `GET /rides/estimate`'s stops: `lat,lon` pairs joined by `;`. */
export const EstimateStops = Type.Optional(
  Type.String({
    maxLength: 200,
    pattern: '^-?[0-9]+(\\.[0-9]+)?,-?[0-9]+(\\.[0-9]+)?(;-?[0-9]+(\\.[0-9]+)?,-?[0-9]+(\\.[0-9]+)?)*$',
    description: `Up to ${MAX_STOPS} stops between pickup and drop, in order, as lat,lon;lat,lon (needs the four coordinates)`,
  }),
);

/** A stop on a ride, as its rider, its driver and operators see it. */
export const RideStop = Type.Object({
  lat: Type.Number(),
  lon: Type.Number(),
  place: Nullable(Type.String()),
  reachedAt: { ...OptionalTimestamp, description: 'When the driver marked the stop reached; null before' },
  leftAt: { ...OptionalTimestamp, description: 'When the ride left the stop (the next mark, a position 100 m away, or the drop); waiting is charged between the two' },
});
export type RideStop = Static<typeof RideStop>;

export const StopParams = Type.Object({
  rideId: Type.Integer({ minimum: 1 }),
  index: Type.Integer({ minimum: 0, maximum: MAX_STOPS - 1, description: "The stop's place in the ride's `stops`, from 0" }),
});
