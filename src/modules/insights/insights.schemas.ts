import { Type, type Static } from 'typebox';
import { Latitude, Longitude, Nullable } from '../../platform/schemas.ts';

const Count = Type.Integer({ minimum: 0 });

export const PredictiveInsights = Type.Object({
  model: Type.String({ description: 'Forecast model version' }),
  generatedAt: Type.String({ format: 'date-time' }),
  confidence: Type.Enum(['LOW', 'MEDIUM', 'HIGH']),
  sampleSize: Type.Integer({ description: 'Rides in the 14-day window' }),
  demandForecast: Type.Object({
    trend: Type.Enum(['RISING', 'STABLE', 'SOFT']),
    currentOpenRequests: Count,
    nextHourDemand: Count,
    nextTwoHoursDemand: Count,
    peakWindow: Nullable(Type.String({ pattern: '^\\d{2}:\\d{2}-\\d{2}:\\d{2}$' })),
  }),
  surgeRecommendation: Type.Object({
    suggestedMultiplier: Type.Number({ minimum: 1, maximum: 2 }),
    intensity: Type.Enum(['NORMAL', 'MODERATE', 'HIGH', 'SEVERE']),
    reason: Type.String(),
  }),
  etaGuidance: Type.Object({
    baselinePickupMinutes: Type.Integer(),
    predictedPickupMinutes: Type.Integer(),
    deltaMinutes: Type.Integer(),
    reason: Type.String(),
  }),
  driverSupplyPlan: Type.Object({
    activeDriversEstimate: Count,
    busyDrivers: Count,
    recommendedOnlineDrivers: Count,
    additionalDriversNeeded: Count,
    action: Type.String(),
  }),
});
export type PredictiveInsights = Static<typeof PredictiveInsights>;

export const ZoneView = Type.Object({
  zone: Type.String({ description: 'H3 cell (resolution 8) around the point' }),
  demand: Count,
  supply: Count,
  pressure: Type.Number(),
  multiplier: Type.Number({ minimum: 1, maximum: 2 }),
  intensity: Type.Enum(['NORMAL', 'MODERATE', 'HIGH', 'SEVERE']),
});

/** For a point: the same answer, its surge the zone's, plus the zone's own numbers. */
export const ZoneInsights = Type.Object({ ...PredictiveInsights.properties, zone: Type.Optional(ZoneView) });
export type ZoneInsights = Static<typeof ZoneInsights>;

export const InsightsQuery = Type.Object({
  lat: Type.Optional(Latitude),
  lon: Type.Optional(Longitude),
});

export const ZonesResponse = Type.Object({
  generatedAt: Nullable(Type.String({ format: 'date-time' })),
  zones: Type.Array(ZoneView),
});
