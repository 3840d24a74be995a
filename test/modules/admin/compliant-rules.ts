import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';

/** Pricing rules that keep to IN-MVAG-2025 and name it: saving them turns the profile on. */
export const COMPLIANT: PricingRules = {
  ...FIRST_RULES,
  fares: Object.fromEntries(Object.entries(FIRST_RULES.fares).map(([type, rate]) => [type, { ...rate, baseKm: 3 }])) as PricingRules['fares'],
  surgeFloor: 1,
  surgeCap: 2,
  driverShare: 0.8,
  cancellation: { ACCEPTED: { share: 0.1, min: 0, max: 50 }, PICKED: { share: 0.1, min: 0, max: 100 } },
  driverCancellation: { share: 0.1, min: 0, max: 100 },
  validCancellationReasons: ['Vehicle breakdown'],
  compliance: 'IN-MVAG-2025',
};
