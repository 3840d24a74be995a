import type { PricingRules } from './pricing.schemas.ts';

// Who gets what of a fare (decisions.md "Fare policy", driverShare): the driver keeps the pricing
// version's share of it and every rupee of tolls and parking (paid at cost); the rest is the
// platform's fee. Pure, used by receipts and earnings alike.

/** The share of versions made before pricing rules carried one (the guidelines' 80 % floor). */
export const DEFAULT_DRIVER_SHARE = 0.8;

export const driverShareOf = (rules: PricingRules & { driverShare?: number }): number => rules.driverShare ?? DEFAULT_DRIVER_SHARE;

const paise = (rupees: number) => Math.round(rupees * 100) / 100;

/** The driver's part and the platform's fee of a fare holding `passedThrough` rupees of tolls and parking, to the paisa. */
export function splitFare(fare: number, passedThrough: number, share: number): { driverAmountInInr: number; platformFeeInInr: number } {
  const passed = Math.min(fare, Math.max(0, passedThrough));
  const driverAmountInInr = paise(paise((fare - passed) * share) + passed);
  return { driverAmountInInr, platformFeeInInr: paise(fare - driverAmountInInr) };
}
