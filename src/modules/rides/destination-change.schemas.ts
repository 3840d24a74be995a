import { Type, type Static } from 'typebox';
import { Latitude, Longitude, Nullable, OptionalText, Timestamp } from '../../platform/schemas.ts';

// A rider's change of destination while ACCEPTED or PICKED: the quote they ask for, the confirmation,
// and the changes a ride shows.

/** POST /rides/{id}/destination: where to go instead. */
export const DestinationBody = Type.Object({ lat: Latitude, lon: Longitude, place: OptionalText(200) });
export type DestinationBody = Static<typeof DestinationBody>;

/** POST /rides/{id}/destination/confirm. */
export const ConfirmDestinationBody = Type.Object({ quoteId: Type.String({ minLength: 1, maxLength: 64, description: 'The quote POST /rides/{id}/destination answered' }) });
export type ConfirmDestinationBody = Static<typeof ConfirmDestinationBody>;

/** What the new destination would cost: the whole trip from the pickup, through the stops left, to it. Nothing changes until it is confirmed. */
export const DestinationQuote = Type.Object({
  quoteId: Type.String(),
  rideId: Type.Integer(),
  dropLat: Type.Number(),
  dropLon: Type.Number(),
  dropLocation: Nullable(Type.String()),
  distanceKm: Type.Number({ description: 'The whole trip: while PICKED, the distance driven so far and the route from the last position counted' }),
  durationMinutes: Type.Integer({ description: 'The whole trip: while PICKED, the minutes since the pickup and the driving time left' }),
  currency: Type.Literal('INR'),
  fare: Type.Integer({ description: "The new upfront fare, under the ride's pricing version and surge, stops included" }),
  previousFare: Type.Integer({ description: "The ride's upfront fare now" }),
  expiresAt: Timestamp,
});
export type DestinationQuote = Static<typeof DestinationQuote>;

/** A destination change the rider confirmed, as the ride shows it. */
export const DestinationChange = Type.Object({
  dropLat: Type.Number(),
  dropLon: Type.Number(),
  dropLocation: Nullable(Type.String()),
  distanceKm: Type.Number(),
  durationMinutes: Type.Integer(),
  fare: Type.Integer(),
  previousFare: Type.Integer(),
  previousDistanceKm: Type.Number(),
  previousDurationMinutes: Type.Integer(),
  confirmedAt: Timestamp,
});
export type DestinationChange = Static<typeof DestinationChange>;
