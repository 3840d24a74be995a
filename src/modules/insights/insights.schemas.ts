import { Type } from 'typebox';
import { Nullable } from '../../platform/schemas.ts';

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
