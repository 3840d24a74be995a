import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IN_MVAG_2025, rideBreaches, versionBreaches, type PricedRide } from '../../../src/modules/pricing/compliance.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';

// IN-MVAG-2025 (India's Motor Vehicle Aggregator Guidelines 2025), each rule on its own.

const withBaseKm = (rules: PricingRules, baseKm: number): PricingRules['fares'] =>
  Object.fromEntries(Object.entries(rules.fares).map(([type, rate]) => [type, { ...rate, baseKm }])) as PricingRules['fares'];

/** A version that keeps to every rule: the cheapest fare is ₹30 (bike's minimum), so a penalty's min may be ₹3. */
const COMPLIANT: PricingRules = {
  ...FIRST_RULES,
  fares: withBaseKm(FIRST_RULES, 3),
  surgeFloor: 0.5,
  surgeCap: 2,
  driverShare: 0.8,
  cancellation: { ACCEPTED: { share: 0.1, min: 0, max: 50 }, PICKED: { share: 0.1, min: 0, max: 100 } },
  driverCancellation: { share: 0.1, min: 1, max: 100 },
  validCancellationReasons: ['Vehicle breakdown'],
  compliance: 'IN-MVAG-2025',
};

const RIDE: PricedRide = { id: 7, rideType: 'mini', pricingVersion: 3, fare: 400, surgeMultiplier: 1.2, cancelledBy: null, cancellationReason: null, cancellationFee: null, driverPenalty: null };
const rulesOf = (breaches: { rule: string }[]) => [...new Set(breaches.map(({ rule }) => rule))];

describe('IN-MVAG-2025 on a pricing version', () => {
  test('a version keeping to every rule breaks none, and the profile has the five rules', () => {
    assert.deepEqual(versionBreaches('IN-MVAG-2025', COMPLIANT), []);
    assert.deepEqual(IN_MVAG_2025.map(({ name }) => name), [
      'surge-between-half-and-double', 'base-covers-dead-mileage', 'rider-cancellation-penalty', 'driver-cancellation-penalty', 'driver-keeps-80-percent',
    ]);
  });

  test('surge between 0.5× and 2× of base: a floor below 0.5 or a cap above 2 breaks it', () => {
    assert.deepEqual(rulesOf(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, surgeFloor: 0.4 })), ['surge-between-half-and-double']);
    assert.deepEqual(rulesOf(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, surgeCap: 2.5 })), ['surge-between-half-and-double']);
  });

  test('the base covers 3 km of dead mileage: any ride type whose base covers less breaks it', () => {
    const breaches = versionBreaches('IN-MVAG-2025', { ...COMPLIANT, fares: { ...COMPLIANT.fares, auto: { ...COMPLIANT.fares.auto, baseKm: 2.5 } } });
    assert.deepEqual(breaches, [{ rule: 'base-covers-dead-mileage', problem: 'fares.auto.baseKm 2.5 is below 3' }]);
    // Version 1 (its base covers nothing) breaks it for all five types.
    assert.equal(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, fares: FIRST_RULES.fares }).length, 5);
  });

  test("the rider's penalty is at most 10 % and ₹100: a larger share, a max above ₹100 or a min above 10 % of the cheapest fare breaks it", () => {
    for (const ACCEPTED of [{ share: 0.2, min: 0, max: 50 }, { share: 0.1, min: 0, max: 150 }, { share: 0.1, min: 20, max: 50 }]) {
      assert.deepEqual(rulesOf(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, cancellation: { ...COMPLIANT.cancellation, ACCEPTED } })), ['rider-cancellation-penalty'], JSON.stringify(ACCEPTED));
    }
  });

  test("the driver's penalty is held to the same limits", () => {
    for (const driverCancellation of [{ share: 0.15, min: 0, max: 100 }, { share: 0.1, min: 0, max: 101 }, { share: 0.1, min: 4, max: 100 }]) {
      assert.deepEqual(rulesOf(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, driverCancellation })), ['driver-cancellation-penalty'], JSON.stringify(driverCancellation));
    }
  });

  test("the driver keeps at least 80 %: a share below 0.8 breaks it", () => {
    assert.deepEqual(versionBreaches('IN-MVAG-2025', { ...COMPLIANT, driverShare: 0.75 }), [{ rule: 'driver-keeps-80-percent', problem: 'driverShare 0.75 is below 0.8' }]);
  });
});

describe('IN-MVAG-2025 on a ride', () => {
  test('a ride priced with a compliant version, within every limit, breaks nothing', () => {
    assert.deepEqual(rideBreaches('IN-MVAG-2025', RIDE, COMPLIANT), []);
    assert.deepEqual(rideBreaches('IN-MVAG-2025', { ...RIDE, cancelledBy: 'rider', cancellationFee: 40 }, COMPLIANT), []);
  });

  test('a surge outside 0.5× to 2× breaks the surge rule', () => {
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', { ...RIDE, surgeMultiplier: 2.4 }, COMPLIANT)), ['surge-between-half-and-double']);
  });

  test("a ride priced with a base that covers less than 3 km of its type breaks the dead-mileage rule", () => {
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', RIDE, { ...COMPLIANT, fares: FIRST_RULES.fares })), ['base-covers-dead-mileage']);
  });

  test("a rider's fee above 10 % of the fare or ₹100, or charged despite a valid reason, breaks the rider rule", () => {
    const cancelled = { ...RIDE, cancelledBy: 'rider' };
    assert.deepEqual(rideBreaches('IN-MVAG-2025', { ...cancelled, cancellationFee: 41 }, COMPLIANT), [
      { rule: 'rider-cancellation-penalty', problem: "the rider's cancellation fee ₹41 is above ₹40 (10 % of the fare ₹400, at most ₹100)" },
    ]);
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', { ...cancelled, fare: 2000, cancellationFee: 120 }, COMPLIANT)), ['rider-cancellation-penalty']);
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', { ...cancelled, cancellationFee: 10, cancellationReason: 'Vehicle breakdown' }, COMPLIANT)), ['rider-cancellation-penalty']);
  });

  test("a driver's penalty is held to the same limits", () => {
    const cancelled = { ...RIDE, cancelledBy: 'driver' };
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', { ...cancelled, driverPenalty: 60 }, COMPLIANT)), ['driver-cancellation-penalty']);
    assert.deepEqual(rideBreaches('IN-MVAG-2025', { ...cancelled, driverPenalty: 40 }, COMPLIANT), []);
  });

  test("a ride priced with a driver's share below 80 % breaks the share rule", () => {
    assert.deepEqual(rulesOf(rideBreaches('IN-MVAG-2025', RIDE, { ...COMPLIANT, driverShare: 0.7 })), ['driver-keeps-80-percent']);
  });
});
