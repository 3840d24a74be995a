import { Type, type Static } from 'typebox';
import { Latitude, Longitude, Nullable, Timestamp } from '../../platform/schemas.ts';

/**
 * What an online driver is doing, as the operators' live map shows it: on an ACCEPTED or PICKED
 * ride; cleared for offers and on no ride; or online without a vehicle profile (or without the
 * approval DRIVER_APPROVAL_REQUIRED asks for), so dispatch offers them nothing.
 */
export const LIVE_DRIVER_STATES = ['busy', 'available', 'not_cleared'] as const;
export type LiveDriverState = (typeof LIVE_DRIVER_STATES)[number];

/** The largest area one read covers: the public nearby search's radius. */
export const LIVE_RADIUS_MAX_KM = 50;
export const LIVE_LIMIT_MAX = 1000;

export const LiveDriversQuery = Type.Object({
  lat: Latitude,
  lon: Longitude,
  radiusKm: Type.Number({ exclusiveMinimum: 0, maximum: LIVE_RADIUS_MAX_KM, default: 10, description: 'Around lat, lon: a map view asks for the circle around its box' }),
  limit: Type.Integer({ minimum: 1, maximum: LIVE_LIMIT_MAX, default: 500, description: 'The nearest drivers first' }),
});
export type LiveDriversQuery = Static<typeof LiveDriversQuery>;

export const LiveDriver = Type.Object({
  driverId: Type.Integer(),
  name: Nullable(Type.String()),
  lat: Type.Number(),
  lon: Type.Number(),
  distanceKm: Type.Number({ description: 'From lat, lon of the query' }),
  state: Type.Enum(LIVE_DRIVER_STATES, {
    description: 'busy: on an ACCEPTED or PICKED ride; available: cleared for offers and on no ride (one holding an offer for its few seconds included); not_cleared: no vehicle profile, or not approved while approval is required',
  }),
});
export type LiveDriver = Static<typeof LiveDriver>;

export const LiveDrivers = Type.Object({
  generatedAt: Timestamp,
  drivers: Type.Array(LiveDriver, { description: 'Drivers with a fresh position (the last two minutes) in the circle, nearest first' }),
  complete: Type.Boolean({ description: 'false when more drivers are in the circle than the limit let through' }),
});
export type LiveDrivers = Static<typeof LiveDrivers>;
