import type { RideType } from '../../platform/vocabulary.ts';
import type { CancellationRule, ComplianceProfile, PricingRules } from './pricing.schemas.ts';

// Compliance profiles as code (decisions.md "Fare policy", compliance profiles). A profile is a list
// of named rules; each checks a pricing version (saving one that breaks a rule of the profile it
// names is 400) and each ride priced with a version (GET /admin/compliance lists the rides that
// break one). Pure functions: a rule says what is wrong, or nothing.

/** What a rule needs to know of a ride: its price, its surge and what its cancellation charged. */
export interface PricedRide {
  id: number;
  rideType: RideType;
  pricingVersion: number;
  fare: number;
  surgeMultiplier: number;
  cancelledBy: string | null;
  cancellationReason: string | null;
  /** The rider's fee for cancelling (null: none). */
  cancellationFee: number | null;
  /** The driver's penalty for cancelling (null: none). */
  driverPenalty: number | null;
}

export interface ComplianceRule {
  /** The rule's name, as a 400 and the compliance report say it. */
  name: string;
  /** What the rule asks, in words. */
  asks: string;
  /** What is wrong with a version under this rule (empty: it keeps to it). */
  version(rules: PricingRules): string[];
  /** What is wrong with a ride priced with `rules` under this rule (empty: it keeps to it). */
  ride(ride: PricedRide, rules: PricingRules): string[];
}

/** India's Motor Vehicle Aggregator Guidelines 2025, as the fare policy applies them. */
const MVAG = {
  surgeFloor: 0.5,
  surgeCap: 2,
  deadMileageKm: 3,
  penaltyShare: 0.1,
  penaltyCap: 100,
  driverShare: 0.8,
} as const;

/** The least any trip can cost under a version: the smallest minimum fare at the lowest surge. */
const lowestFare = (rules: PricingRules): number => Math.min(...Object.values(rules.fares).map((rate) => rate.minimum)) * rules.surgeFloor;

/** The most a penalty may be on a fare: 10 % of it (to the rupee), never above ₹100. */
const penaltyLimit = (fare: number): number => Math.min(MVAG.penaltyCap, Math.round(fare * MVAG.penaltyShare));

function penaltyRuleProblems(name: string, rule: CancellationRule, rules: PricingRules): string[] {
  const problems: string[] = [];
  if (rule.share > MVAG.penaltyShare) problems.push(`${name}.share ${rule.share} is above 10 % of the fare`);
  if (rule.max > MVAG.penaltyCap) problems.push(`${name}.max ₹${rule.max} is above ₹100`);
  const floor = MVAG.penaltyShare * lowestFare(rules);
  if (rule.min > floor) problems.push(`${name}.min ₹${rule.min} is above 10 % of the cheapest possible fare (₹${floor})`);
  return problems;
}

/** A charge for cancelling that a valid reason should have waived, or that is above the limit. */
function chargeProblems(what: string, charged: number | null, ride: PricedRide, rules: PricingRules): string[] {
  if (charged === null || charged <= 0) return [];
  if (ride.cancellationReason !== null && rules.validCancellationReasons.includes(ride.cancellationReason)) {
    return [`${what} ₹${charged} charged despite the valid reason "${ride.cancellationReason}"`];
  }
  const limit = penaltyLimit(ride.fare);
  return charged > limit ? [`${what} ₹${charged} is above ₹${limit} (10 % of the fare ₹${ride.fare}, at most ₹100)`] : [];
}

export const IN_MVAG_2025: readonly ComplianceRule[] = [
  {
    name: 'surge-between-half-and-double',
    asks: 'surge between 0.5× and 2× of base (surgeFloor ≥ 0.5, surgeCap ≤ 2)',
    version: (rules) => [
      ...(rules.surgeFloor < MVAG.surgeFloor ? [`surgeFloor ${rules.surgeFloor} is below 0.5`] : []),
      ...(rules.surgeCap > MVAG.surgeCap ? [`surgeCap ${rules.surgeCap} is above 2`] : []),
    ],
    ride: (ride) => (ride.surgeMultiplier < MVAG.surgeFloor || ride.surgeMultiplier > MVAG.surgeCap ? [`surge ×${ride.surgeMultiplier} is outside 0.5× to 2×`] : []),
  },
  {
    name: 'base-covers-dead-mileage',
    asks: 'the base fare covers at least 3 km of dead mileage (baseKm ≥ 3 for every ride type)',
    version: (rules) => Object.entries(rules.fares).filter(([, rate]) => rate.baseKm < MVAG.deadMileageKm).map(([type, rate]) => `fares.${type}.baseKm ${rate.baseKm} is below 3`),
    ride: (ride, rules) => {
      const { baseKm } = rules.fares[ride.rideType];
      return baseKm < MVAG.deadMileageKm ? [`priced with a base covering ${baseKm} km (${ride.rideType}), not 3`] : [];
    },
  },
  {
    name: 'rider-cancellation-penalty',
    asks: "a rider's cancellation penalty is at most 10 % of the fare and ₹100, and nothing with a valid reason",
    version: (rules) => [...penaltyRuleProblems('cancellation.ACCEPTED', rules.cancellation.ACCEPTED, rules), ...penaltyRuleProblems('cancellation.PICKED', rules.cancellation.PICKED, rules)],
    ride: (ride, rules) => (ride.cancelledBy === 'rider' ? chargeProblems("the rider's cancellation fee", ride.cancellationFee, ride, rules) : []),
  },
  {
    name: 'driver-cancellation-penalty',
    asks: "a driver's cancellation penalty is at most 10 % of the fare and ₹100, and nothing with a valid reason",
    version: (rules) => penaltyRuleProblems('driverCancellation', rules.driverCancellation, rules),
    ride: (ride, rules) => (ride.cancelledBy === 'driver' ? chargeProblems("the driver's cancellation penalty", ride.driverPenalty, ride, rules) : []),
  },
  {
    name: 'driver-keeps-80-percent',
    asks: 'a driver owning the vehicle keeps at least 80 % of the fare (driverShare ≥ 0.8)',
    version: (rules) => (rules.driverShare < MVAG.driverShare ? [`driverShare ${rules.driverShare} is below 0.8`] : []),
    ride: (_ride, rules) => (rules.driverShare < MVAG.driverShare ? [`priced with a driver's share of ${rules.driverShare}, below 0.8`] : []),
  },
];

/** The oldest vehicle each profile lets take rides, in years since its first registration (drivers' documents check it). */
export const VEHICLE_AGE_LIMIT_YEARS: Record<ComplianceProfile, number> = { 'IN-MVAG-2025': 8 };

export const COMPLIANCE_RULES: Record<ComplianceProfile, readonly ComplianceRule[]> = { 'IN-MVAG-2025': IN_MVAG_2025 };

export interface Breach {
  rule: string;
  problem: string;
}

/** What a version breaks of a profile (empty: it keeps to every rule). */
export function versionBreaches(profile: ComplianceProfile, rules: PricingRules): Breach[] {
  return COMPLIANCE_RULES[profile].flatMap((rule) => rule.version(rules).map((problem) => ({ rule: rule.name, problem })));
}

/** What a ride priced with `rules` breaks of a profile (empty: it keeps to every rule). */
export function rideBreaches(profile: ComplianceProfile, ride: PricedRide, rules: PricingRules): Breach[] {
  return COMPLIANCE_RULES[profile].flatMap((rule) => rule.ride(ride, rules).map((problem) => ({ rule: rule.name, problem })));
}
