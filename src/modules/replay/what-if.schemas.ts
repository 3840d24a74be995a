import { Type, type Static } from 'typebox';
import { PricingRules } from '../pricing/pricing.schemas.ts';
import { SUPPLY_PERIOD_MAX_DAYS } from './replay.schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const WhatIfDispatch = Type.Object(
  {
    mode: Type.Optional(Type.Union([Type.Literal('nearest'), Type.Literal('batched')], { description: 'DISPATCH_MODE to try' })),
    batchMs: Type.Optional(Type.Integer({ minimum: 50, maximum: 60_000, description: 'DISPATCH_BATCH_MS to try' })),
    offerTtlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600, description: 'DISPATCH_OFFER_TTL_SECONDS to try' })),
    maxSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 3_600, description: 'DISPATCH_MAX_SECONDS to try' })),
  },
  { additionalProperties: false },
);
export type WhatIfDispatch = Static<typeof WhatIfDispatch>;

export const WhatIfBody = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'Start of the period to replay' }),
    to: Type.String({ format: 'date-time', description: `Its end (at most ${SUPPLY_PERIOD_MAX_DAYS} days after from)` }),
    pricing: Type.Optional(PricingRules),
    dispatch: Type.Optional(WhatIfDispatch),
  },
  { additionalProperties: false },
);
export type WhatIfBody = Static<typeof WhatIfBody>;

export const PeriodFigures = Type.Object({
  requests: Type.Integer(),
  matchedShare: Nullable(Type.Number({ description: 'Share of requests a driver took' })),
  pickupEtaMeanMinutes: Nullable(Type.Number({ description: "Mean of the matched rides' pickup ways (the offer's minutes)" })),
  pickupEtaP50Minutes: Nullable(Type.Number({ description: "Median of the matched rides' pickup ways (the offer's minutes)" })),
  pickupEtaP90Minutes: Nullable(Type.Number()),
  meanFare: Nullable(Type.Number({ description: 'Mean upfront fare of the matched rides, rupees' })),
  surgedShare: Nullable(Type.Number({ description: 'Share of requests quoted with a surge above 1' })),
  driverEarningsPerOnlineHour: Nullable(Type.Number({ description: "The drivers' share of matched fares per driver-hour online, rupees" })),
  cancellations: Type.Integer({ description: 'Riders who cancelled before a driver was found' }),
});

const Columns = Type.Object({ actual: PeriodFigures, asWas: PeriodFigures, candidate: PeriodFigures });

export const WhatIfJob = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: Nullable(Type.String({ format: 'date-time' })),
  error: Nullable(Type.String()),
  inputs: Type.Object({
    requests: Type.Integer({ description: 'Requests of the period replayed' }),
    samples: Type.Integer({ description: 'Supply samples the drivers came from' }),
    asWasPricingVersion: Type.Integer({ description: 'The version most of the period was priced with: the "as was" column runs under it' }),
    asWasDispatch: WhatIfDispatch,
    candidateDispatch: WhatIfDispatch,
    candidatePricing: Type.Boolean({ description: 'Whether a pricing document was tried (else the as-was version)' }),
    acceptance: Type.Object({ offers: Type.Integer(), intercept: Type.Number(), perKm: Type.Number(), perHundredRupees: Type.Number() }),
    cancellation: Type.Object({ requests: Type.Integer(), perMinute: Type.Number() }),
    answers: Type.Object(
      { accepted: Type.Integer(), acceptSeconds: Type.Number(), refused: Type.Integer(), refuseSeconds: Type.Number() },
      { description: "Drivers' mean time to accept, and to decline or let expire, an offer: a replayed offer holds its ride and driver as long (seconds of the clock)" },
    ),
    tripTimes: Type.Object(
      { rides: Type.Integer(), factor: Type.Number() },
      { description: "Completed rides' time from acceptance to drop over their quoted minutes (pickup way and trip): a replayed trip holds its driver its quoted minutes times this" },
    ),

  }),
  totals: Nullable(Columns),
  hours: Type.Array(Type.Object({ hour: Type.String({ format: 'date-time' }), actual: PeriodFigures, asWas: PeriodFigures, candidate: PeriodFigures }), {
    description: 'Hour by hour, once done',
  }),
});
export type WhatIfJob = Static<typeof WhatIfJob>;

export const WhatIfParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
