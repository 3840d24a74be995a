// demand-heuristics-v1: a transparent forecast from ride counts. Every constant is here, with its
// meaning; the README lists them too. Pure functions only: the service gathers the numbers.

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

export type Intensity = 'NORMAL' | 'MODERATE' | 'HIGH' | 'SEVERE';
export type Trend = 'RISING' | 'STABLE' | 'SOFT';
export type Confidence = 'LOW' | 'MEDIUM' | 'HIGH';

export interface DemandInput {
  now: number;
  timeZone: string;
  /** Rides created per bucket over the look-back window: bucket start (epoch ms) and count. */
  buckets: ReadonlyArray<{ start: number; count: number }>;
  /** Rides created in the last `recentHours`. */
  recentRides: number;
  openRequests: number;
  activeDrivers: number;
  busyDrivers: number;
  /** Mean minutes from request to acceptance over the recent window, undefined when nothing was accepted. */
  recentAcceptDelayMinutes: number | undefined;
  recentAccepted: number;
}

export interface Insights {
  model: string;
  generatedAt: string;
  confidence: Confidence;
  sampleSize: number;
  demandForecast: {
    trend: Trend;
    currentOpenRequests: number;
    nextHourDemand: number;
    nextTwoHoursDemand: number;
    peakWindow: string | null;
  };
  surgeRecommendation: { suggestedMultiplier: number; intensity: Intensity; reason: string };
  etaGuidance: { baselinePickupMinutes: number; predictedPickupMinutes: number; deltaMinutes: number; reason: string };
  driverSupplyPlan: {
    activeDriversEstimate: number;
    busyDrivers: number;
    recommendedOnlineDrivers: number;
    additionalDriversNeeded: number;
    action: string;
  };
}

const HOUR_MS = 3_600_000;
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

export function forecast(input: DemandInput): Insights {
  const c = MODEL_CONSTANTS;
  const profile = hourlyProfile(input.now, input.timeZone, input.buckets);
  const sampleSize = input.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const recentRate = input.recentRides / c.recentHours;
  const open = input.openRequests;

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

  const drivers = Math.max(1, input.activeDrivers);
  const pressure = round2((open + c.forecastPressureWeight * nextHourDemand) / drivers);
  const surge = surgeFor(pressure);
  const surgeReason =
    `${open} open request${open === 1 ? '' : 's'} and ${nextHourDemand} forecast for the next hour against ` +
    `${input.activeDrivers} active driver${input.activeDrivers === 1 ? '' : 's'}: pressure ${pressure.toFixed(2)} ` +
    `→ ${surge.multiplier.toFixed(2)}× (${surge.intensity}).`;

  const acceptDelay = input.recentAcceptDelayMinutes ?? c.defaultAcceptDelayMinutes;
  const predictedPickupMinutes = Math.max(1, Math.round(c.driveToPickupMinutes + acceptDelay * Math.max(1, pressure)));
  const etaReason =
    input.recentAcceptDelayMinutes === undefined
      ? `No ride was accepted in the last ${c.recentHours} hours; assuming a ${c.defaultAcceptDelayMinutes}-minute accept delay at pressure ${pressure.toFixed(2)}, plus ${c.driveToPickupMinutes} minutes to drive.`
      : `Drivers accepted ${input.recentAccepted} ride${input.recentAccepted === 1 ? '' : 's'} in the last ${c.recentHours} hours after ${acceptDelay.toFixed(1)} minutes on average; at pressure ${pressure.toFixed(2)}, plus ${c.driveToPickupMinutes} minutes to drive.`;

  const recommendedOnlineDrivers = Math.ceil(nextHourDemand / c.ridesPerDriverHour);
  const additionalDriversNeeded = Math.max(0, recommendedOnlineDrivers - input.activeDrivers);
  const action =
    additionalDriversNeeded > 0
      ? `Bring ${additionalDriversNeeded} more driver${additionalDriversNeeded === 1 ? '' : 's'} online: ${nextHourDemand} rides are expected in the next hour and ${input.activeDrivers} drivers are active (${c.ridesPerDriverHour} rides per driver-hour).`
      : `Supply is sufficient: ${input.activeDrivers} active drivers cover the ${nextHourDemand} rides expected in the next hour.`;

  return {
    model: MODEL,
    generatedAt: new Date(input.now).toISOString(),
    confidence: confidenceFor(sampleSize),
    sampleSize,
    demandForecast: {
      trend,
      currentOpenRequests: open,
      nextHourDemand,
      nextTwoHoursDemand: nextHourDemand + secondHourDemand,
      peakWindow: peakWindow(profile),
    },
    surgeRecommendation: { suggestedMultiplier: surge.multiplier, intensity: surge.intensity, reason: surgeReason },
    etaGuidance: {
      baselinePickupMinutes: c.baselinePickupMinutes,
      predictedPickupMinutes,
      deltaMinutes: predictedPickupMinutes - c.baselinePickupMinutes,
      reason: etaReason,
    },
    driverSupplyPlan: {
      activeDriversEstimate: input.activeDrivers,
      busyDrivers: input.busyDrivers,
      recommendedOnlineDrivers,
      additionalDriversNeeded,
      action,
    },
  };
}
