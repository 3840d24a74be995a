import type { PredictiveInsights } from './insights.schemas.ts';

// demand-heuristics-v1: a transparent forecast from ride counts. Every constant is here, with its
// meaning; the README lists them too. Pure functions only: the service gathers the numbers, the
// arithmetic is in `forecastNumbers`, the sentences that explain it at the end of the file.

export const MODEL = 'demand-heuristics-v1';

export const MODEL_CONSTANTS = {
  /** Days of history the model looks at. */
  lookbackDays: 14,
  /** Each day back counts this much less than the one after it (0.9 → a week ago weighs 0.48). */
  dayDecay: 0.9,
  /** Width of the count buckets; every real time zone offset is a multiple of it, so a bucket lies in one local hour. */
  bucketMinutes: 15,
  /** The "recent" demand rate is measured over this many hours. */
  recentHours: 3,
  /** Next-hour blend weights: historical average, recent rate, open requests (they sum to 1). */
  nextHourWeights: { history: 0.5, recent: 0.35, open: 0.15 },
  /** Second-hour blend weights: historical average and recent rate. */
  secondHourWeights: { history: 0.6, recent: 0.4 },
  /** RISING above history × (1 + margin), SOFT below history × (1 − margin), if the gap is at least minGap rides/hour. */
  trend: { margin: 0.2, minGap: 1 },
  /** Drivers count as active with a position or ride activity this recently. */
  activeDriverHours: 6,
  /** Share of the next hour's forecast that adds to today's pressure. */
  forecastPressureWeight: 0.75,
  /** Pressure (demand per active driver) thresholds and the surge they suggest. */
  surgeSteps: [
    { below: 0.8, multiplier: 1.0, intensity: 'NORMAL' },
    { below: 1.0, multiplier: 1.1, intensity: 'MODERATE' },
    { below: 1.3, multiplier: 1.25, intensity: 'MODERATE' },
    { below: 1.7, multiplier: 1.4, intensity: 'HIGH' },
    { below: 2.2, multiplier: 1.6, intensity: 'HIGH' },
  ],
  /** Beyond the last step: SEVERE, +0.25 per unit of pressure over it, in 0.05 steps, capped. */
  severeSlope: 0.25,
  maxMultiplier: 2.0,
  /** Minutes a driver needs to reach a pickup once they accept. */
  driveToPickupMinutes: 4,
  /** The normal wait: typical accept delay plus the drive. */
  baselinePickupMinutes: 6,
  /** Accept delay assumed when no ride was accepted recently. */
  defaultAcceptDelayMinutes: 2,
  /** Rides one driver completes per hour. */
  ridesPerDriverHour: 2,
  /** Confidence by the number of rides in the window. */
  confidence: { lowBelow: 20, mediumBelow: 60 },
} as const;

export type Intensity = PredictiveInsights['surgeRecommendation']['intensity'];
export type Trend = PredictiveInsights['demandForecast']['trend'];
export type Confidence = PredictiveInsights['confidence'];

export interface DemandInput {
  now: number;
  timeZone: string;
  /** Demand per bucket over the look-back window: bucket start (epoch ms) and distinct riders who booked in it. */
  buckets: ReadonlyArray<{ start: number; count: number }>;
  /** Rides booked in the window (what the history rests on). */
  sampleSize: number;
  /** Demand (distinct riders per bucket) over the last `recentHours`. */
  recentDemand: number;
  /** Rides in REQUESTED now, and the distinct riders holding them (one rider's many bookings are one demand). */
  openRequests: number;
  openRiders: number;
  activeDrivers: number;
  busyDrivers: number;
  /** Mean minutes from request to acceptance over the recent window, undefined when nothing was accepted. */
  recentAcceptDelayMinutes: number | undefined;
  recentAccepted: number;
}

export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const round2 = (value: number) => Math.round(value * 100) / 100;
const pad = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Local hour of day (0–23) of an instant in a time zone. */
export function localHour(epochMs: number, timeZone: string): number {
  return Number(hourFormat(timeZone).format(epochMs)) % 24;
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
function hourFormat(timeZone: string): Intl.DateTimeFormat {
  let format = hourFormats.get(timeZone);
  if (!format) hourFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' })));
  return format;
}

/** Weighted rides per day for each local hour: newer days count more. */
export function hourlyProfile(now: number, timeZone: string, buckets: DemandInput['buckets']): number[] {
  const { lookbackDays, dayDecay, bucketMinutes } = MODEL_CONSTANTS;
  const windowStart = now - lookbackDays * DAY_MS;
  let totalWeight = 0;
  for (let day = 0; day < lookbackDays; day++) totalWeight += dayDecay ** day;
  const profile = new Array<number>(24).fill(0);
  for (const { start, count } of buckets) {
    // The bucket that straddles the window's start holds rides of the window's oldest day.
    if (start > now || start + bucketMinutes * 60_000 <= windowStart || count === 0) continue;
    const age = Math.min(lookbackDays - 1, Math.floor((now - start) / DAY_MS));
    profile[localHour(start, timeZone)] += (count * dayDecay ** age) / totalWeight;
  }
  return profile;
}

/** The busiest two consecutive local hours, e.g. "08:00-10:00"; null without history. */
export function peakWindow(profile: readonly number[]): string | null {
  let best = -1;
  let bestLoad = 0;
  for (let hour = 0; hour < 24; hour++) {
    const load = profile[hour] + profile[(hour + 1) % 24];
    if (load > bestLoad) {
      bestLoad = load;
      best = hour;
    }
  }
  return best < 0 ? null : `${pad(best)}-${pad((best + 2) % 24)}`;
}

export function surgeFor(pressure: number): { multiplier: number; intensity: Intensity } {
  const { surgeSteps, severeSlope, maxMultiplier } = MODEL_CONSTANTS;
  const step = surgeSteps.find((s) => pressure < s.below);
  if (step) return { multiplier: step.multiplier, intensity: step.intensity };
  const last = surgeSteps[surgeSteps.length - 1];
  const raw = last.multiplier + severeSlope * (pressure - last.below);
  return { multiplier: Math.min(maxMultiplier, Math.round(raw * 20) / 20), intensity: 'SEVERE' };
}

export function confidenceFor(sampleSize: number): Confidence {
  const { lowBelow, mediumBelow } = MODEL_CONSTANTS.confidence;
  return sampleSize < lowBelow ? 'LOW' : sampleSize < mediumBelow ? 'MEDIUM' : 'HIGH';
}

/** The forecast's numbers, before they are explained in words. */
export interface Forecast {
  sampleSize: number;
  profile: number[];
  trend: Trend;
  nextHourDemand: number;
  secondHourDemand: number;
  pressure: number;
  surge: { multiplier: number; intensity: Intensity };
  acceptDelayMinutes: number;
  predictedPickupMinutes: number;
  recommendedOnlineDrivers: number;
  additionalDriversNeeded: number;
}

export function forecastNumbers(input: DemandInput): Forecast {
  const c = MODEL_CONSTANTS;
  const profile = hourlyProfile(input.now, input.timeZone, input.buckets);
  const recentRate = input.recentDemand / c.recentHours;
  const open = input.openRiders;

  // The coming hour is represented by its middle, the hour after likewise.
  const historyNext = profile[localHour(input.now + HOUR_MS / 2, input.timeZone)];
  const historySecond = profile[localHour(input.now + (3 * HOUR_MS) / 2, input.timeZone)];
  const w1 = c.nextHourWeights;
  const nextHourDemand = Math.max(open, Math.round(w1.history * historyNext + w1.recent * recentRate + w1.open * open));
  const w2 = c.secondHourWeights;
  const secondHourDemand = Math.round(w2.history * historySecond + w2.recent * recentRate);

  // The recent rate against the history of the same hours it covers.
  let historyRecent = 0;
  for (let h = 0; h < c.recentHours; h++) historyRecent += profile[localHour(input.now - (h + 0.5) * HOUR_MS, input.timeZone)];
  historyRecent /= c.recentHours;
  const gap = recentRate - historyRecent;
  const trend: Trend =
    gap >= c.trend.minGap && recentRate > historyRecent * (1 + c.trend.margin)
      ? 'RISING'
      : -gap >= c.trend.minGap && recentRate < historyRecent * (1 - c.trend.margin)
        ? 'SOFT'
        : 'STABLE';

  const pressure = round2((open + c.forecastPressureWeight * nextHourDemand) / Math.max(1, input.activeDrivers));
  const acceptDelayMinutes = input.recentAcceptDelayMinutes ?? c.defaultAcceptDelayMinutes;
  const recommendedOnlineDrivers = Math.ceil(nextHourDemand / c.ridesPerDriverHour);
  return {
    sampleSize: input.sampleSize,
    profile,
    trend,
    nextHourDemand,
    secondHourDemand,
    pressure,
    surge: surgeFor(pressure),
    acceptDelayMinutes,
    predictedPickupMinutes: Math.max(1, Math.round(c.driveToPickupMinutes + acceptDelayMinutes * Math.max(1, pressure))),
    recommendedOnlineDrivers,
    additionalDriversNeeded: Math.max(0, recommendedOnlineDrivers - input.activeDrivers),
  };
}

/** The insights of spec 2.8: the forecast's numbers with the sentences that explain them. */
export function forecast(input: DemandInput): PredictiveInsights {
  const c = MODEL_CONSTANTS;
  const f = forecastNumbers(input);
  return {
    model: MODEL,
    generatedAt: new Date(input.now).toISOString(),
    confidence: confidenceFor(f.sampleSize),
    sampleSize: f.sampleSize,
    demandForecast: {
      trend: f.trend,
      currentOpenRequests: input.openRequests,
      nextHourDemand: f.nextHourDemand,
      nextTwoHoursDemand: f.nextHourDemand + f.secondHourDemand,
      peakWindow: peakWindow(f.profile),
    },
    surgeRecommendation: { suggestedMultiplier: f.surge.multiplier, intensity: f.surge.intensity, reason: surgeReason(input, f) },
    etaGuidance: {
      baselinePickupMinutes: c.baselinePickupMinutes,
      predictedPickupMinutes: f.predictedPickupMinutes,
      deltaMinutes: f.predictedPickupMinutes - c.baselinePickupMinutes,
      reason: etaReason(input, f),
    },
    driverSupplyPlan: {
      activeDriversEstimate: input.activeDrivers,
      busyDrivers: input.busyDrivers,
      recommendedOnlineDrivers: f.recommendedOnlineDrivers,
      additionalDriversNeeded: f.additionalDriversNeeded,
      action: supplyAction(input, f),
    },
  };
}

// The sentences that explain a forecast, apart from its arithmetic.

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function surgeReason(input: DemandInput, f: Forecast): string {
  const riders = input.openRiders === input.openRequests ? '' : ` from ${plural(input.openRiders, 'rider')}`;
  return (
    `${plural(input.openRequests, 'open request')}${riders} and ${f.nextHourDemand} forecast for the next hour against ` +
    `${plural(input.activeDrivers, 'active driver')}: pressure ${f.pressure.toFixed(2)} ` +
    `→ ${f.surge.multiplier.toFixed(2)}× (${f.surge.intensity}).`
  );
}

export function etaReason(input: DemandInput, f: Forecast): string {
  const c = MODEL_CONSTANTS;
  return input.recentAcceptDelayMinutes === undefined
    ? `No ride was accepted in the last ${c.recentHours} hours; assuming a ${c.defaultAcceptDelayMinutes}-minute accept delay at pressure ${f.pressure.toFixed(2)}, plus ${c.driveToPickupMinutes} minutes to drive.`
    : `Drivers accepted ${plural(input.recentAccepted, 'ride')} in the last ${c.recentHours} hours after ${f.acceptDelayMinutes.toFixed(1)} minutes on average; at pressure ${f.pressure.toFixed(2)}, plus ${c.driveToPickupMinutes} minutes to drive.`;
}

export function supplyAction(input: DemandInput, f: Forecast): string {
  const c = MODEL_CONSTANTS;
  return f.additionalDriversNeeded > 0
    ? `Bring ${f.additionalDriversNeeded} more driver${f.additionalDriversNeeded === 1 ? '' : 's'} online: ${f.nextHourDemand} rides are expected in the next hour and ${input.activeDrivers} drivers are active (${c.ridesPerDriverHour} rides per driver-hour).`
    : `Supply is sufficient: ${input.activeDrivers} active drivers cover the ${f.nextHourDemand} rides expected in the next hour.`;
}
