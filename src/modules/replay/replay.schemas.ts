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
  sampleSeconds: Type.Integer({ description: 'Seconds between samples' }),
  retentionDays: Type.Integer({ description: 'Days samples are kept (REPLAY_RETENTION_DAYS)' }),
  samples: Type.Array(SupplySample, { description: 'Oldest first; a slot without a sample had no instance running' }),
});
export type SupplyHistory = Static<typeof SupplyHistory>;
