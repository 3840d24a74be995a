import { Type, type Static } from 'typebox';

/** At most this long a period per supply request: a week of 30-second samples is 20,160. */
export const SUPPLY_PERIOD_MAX_DAYS = 8;

export const SupplyQuery = Type.Object({
  from: Type.String({ format: 'date-time', description: 'Samples taken at or after' }),
  to: Type.String({ format: 'date-time', description: `Samples taken before (at most ${SUPPLY_PERIOD_MAX_DAYS} days after from)` }),
});
export type SupplyQuery = Static<typeof SupplyQuery>;

export const SupplySample = Type.Object({
  at: Type.String({ format: 'date-time', description: 'Start of the 30-second slot the sample was taken in' }),
  online: Type.Integer({ description: 'Drivers online (a position within two minutes)' }),
  busy: Type.Integer({ description: 'Of them, drivers on an ACCEPTED or PICKED ride' }),
});
export type SupplySample = Static<typeof SupplySample>;

export const SupplyHistory = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  sampleSeconds: Type.Number({ description: "Seconds of the clock between samples: 30, or 30 of a simulated city's time (SIMULATION_SPEED)" }),
  retentionDays: Type.Integer({ description: 'Days samples are kept (REPLAY_RETENTION_DAYS)' }),
  samples: Type.Array(SupplySample, { description: 'Oldest first; a slot without a sample had no instance running' }),
});
export type SupplyHistory = Static<typeof SupplyHistory>;

export const BehaviourQuery = Type.Object({
  from: Type.String({ format: 'date-time', description: 'Offers made and rides booked at or after' }),
  to: Type.String({ format: 'date-time', description: `Before (at most ${SUPPLY_PERIOD_MAX_DAYS} days after from)` }),
});
export type BehaviourQuery = Static<typeof BehaviourQuery>;

const Band = Type.Object({
  from: Type.Number({ description: 'Lower end of the band (kilometres or minutes), included' }),
  to: Type.Union([Type.Number(), Type.Null()], { description: 'Upper end, excluded; null: no upper end' }),
  count: Type.Integer({ description: 'Offers or requests in the band' }),
  observed: Type.Union([Type.Number(), Type.Null()], { description: 'Share observed in the band (null when empty)' }),
  fitted: Type.Union([Type.Number(), Type.Null()], { description: "The model's share for the band's own cases (null when empty)" }),
});

export const BehaviourFit = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  acceptance: Type.Object({
    offers: Type.Integer({ description: 'Answered offers fitted (accepted, declined or expired)' }),
    acceptedShare: Type.Number(),
    intercept: Type.Number(),
    perKm: Type.Number({ description: 'Change of the log-odds of accepting per kilometre to the pickup' }),
    perHundredRupees: Type.Number({ description: 'Change of the log-odds per ₹100 of fare' }),
    byPickupKm: Type.Array(Band, { description: 'Accepted share by distance to the pickup: observed beside fitted' }),
  }),
  cancellation: Type.Object({
    requests: Type.Integer({ description: 'Requests whose wait for a driver ended in the period' }),
    cancelled: Type.Integer({ description: 'Of them, cancelled by their rider before a driver was found' }),
    perMinute: Type.Number({ description: 'Rate at which waiting riders cancel, per minute' }),
    halfLifeMinutes: Type.Union([Type.Number(), Type.Null()], { description: 'Minutes by which half of the riders still waiting cancel' }),
    byWaitMinutes: Type.Array(Band, { description: 'Cancelled share by minutes waited: observed beside fitted' }),
  }),
  answers: Type.Object({
    accepted: Type.Integer({ description: 'Offers accepted' }),
    acceptMeanMs: Type.Number({ description: 'Mean time from an offer to its acceptance, ms of the clock' }),
    refused: Type.Integer({ description: 'Offers declined or left to expire' }),
    refuseMeanMs: Type.Number({ description: 'Mean time from an offer to its decline or expiry, ms of the clock' }),
  }),
  tripTimes: Type.Object({
    rides: Type.Integer({ description: 'Completed rides whose accepted offer is known' }),
    quotedMinutes: Type.Number({ description: 'Their quoted minutes in all: the way to the pickup and the trip' }),
    heldMinutes: Type.Number({ description: 'Their minutes from acceptance to completion in all (of the city: SIMULATION_SPEED)' }),
    factor: Type.Number({ description: 'Held over quoted: a replayed trip keeps its driver its quoted minutes times this' }),
  }),
});
export type BehaviourFit = Static<typeof BehaviourFit>;
