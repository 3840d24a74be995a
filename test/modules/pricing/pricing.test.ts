import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineKm } from '../../../src/platform/geo/geo.ts';
import { cancellationFee as feeUnder, FIRST_RULES, quoteFare as quoteUnder, roadDistanceKm } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';

// Version 1 of the pricing rules: the documented numbers.
const FARES = FIRST_RULES.fares;
const CANCELLATION_FEES = FIRST_RULES.cancellation;
const quoteFare = (input: Parameters<typeof quoteUnder>[0], rules: PricingRules = FIRST_RULES) => quoteUnder(input, rules, 1);
const cancellationFee = (status: string, by: CancelledBy, fare: number, rules: PricingRules = FIRST_RULES) => feeUnder(status, by === 'rider', fare, rules);
import type { CancelledBy } from '../../../src/modules/rides/rides.schemas.ts';
import { RIDE_TYPES, type RideType } from '../../../src/platform/vocabulary.ts';

// The documented rates (decisions.md: one table, documented). Written out here so a changed rate is noticed.
const DOCUMENTED_RATES: Record<RideType, { base: number; perKm: number; perMinute: number; minimum: number }> = {
  bike: { base: 20, perKm: 6, perMinute: 1, minimum: 30 },
  auto: { base: 30, perKm: 10, perMinute: 1.5, minimum: 40 },
  mini: { base: 50, perKm: 12, perMinute: 2, minimum: 80 },
  sedan: { base: 70, perKm: 15, perMinute: 2.5, minimum: 110 },
  suv: { base: 100, perKm: 20, perMinute: 3, minimum: 150 },
};

/**
 * The documented formula in exact integer arithmetic (paise, hundredths of a km, surge as a
 * fraction): fare = round(max(minimum, base + perKm × km + perMinute × minutes) × surge),
 * minutes = ceil(km / 24 × 60) = ceil(km × 2.5).
 */
function expectedQuote(rideType: RideType, kmHundredths: number, surge: { num: number; den: number }) {
  const rate = DOCUMENTED_RATES[rideType];
  const minutes = Math.floor((kmHundredths + 39) / 40); // ceil(kmHundredths / 40) = ceil(km × 2.5)
  const distancePaise = rate.perKm * kmHundredths;
  const timePaise = rate.perMinute * 100 * minutes;
  const subtotalPaise = Math.max(rate.minimum * 100, rate.base * 100 + distancePaise + timePaise);
  // Round half up of subtotal × num / (100 × den).
  const fare = Math.floor((2 * subtotalPaise * surge.num + 100 * surge.den) / (200 * surge.den));
  return {
    minutes,
    distanceFare: distancePaise / 100,
    timeFare: timePaise / 100,
    fare,
  };
}

const quote = (rideType: RideType, distanceKm: number, surgeMultiplier = 1, pickupEtaMinutes = 5) =>
  quoteFare({ distanceKm, rideType, surgeMultiplier, pickupEtaMinutes, now: NOON_IN_KOLKATA, timeZone: 'Asia/Kolkata' });

/** 12:00 in Asia/Kolkata: far from any night window. */
const NOON_IN_KOLKATA = Date.UTC(2026, 10, 28, 6, 30);

describe('quoteFare', () => {
  test('the FARES table holds the documented rates for all five ride types', () => {
    assert.deepEqual([...RIDE_TYPES].sort(), ['auto', 'bike', 'mini', 'sedan', 'suv']);
    const rates = Object.fromEntries(Object.entries(FARES).map(([type, { base, perKm, perMinute, minimum }]) => [type, { base, perKm, perMinute, minimum }]));
    assert.deepEqual(rates, DOCUMENTED_RATES);
    // Version 1 in the version-2 document: the base covers no kilometres, waiting and the night cost nothing, no stops.
    for (const rate of Object.values(FARES)) {
      assert.deepEqual({ baseKm: rate.baseKm, waiting: rate.waiting.perMinute, night: rate.night.multiplier, perStop: rate.perStop }, { baseKm: 0, waiting: 0, night: 1, perStop: 0 });
    }
  });

  test('worked examples: 10 km is 25 minutes', () => {
    // mini: 50 + 12 × 10 + 2 × 25 = 220
    assert.equal(quote('mini', 10).fare, 220);
    // bike: 20 + 60 + 25 = 105; auto: 30 + 100 + 37.5 = 167.5 → 168; sedan: 70 + 150 + 62.5 = 282.5 → 283; suv: 100 + 200 + 75 = 375
    assert.deepEqual(RIDE_TYPES.map((type) => [type, quote(type, 10).fare]), [['bike', 105], ['auto', 168], ['mini', 220], ['sedan', 283], ['suv', 375]]);
    const mini = quote('mini', 10);
    assert.equal(mini.durationMinutes, 25);
    assert.equal(mini.baseFare, 50);
    assert.equal(mini.distanceFare, 120);
    assert.equal(mini.timeFare, 50);
    assert.equal(mini.currency, 'INR');
    assert.equal(mini.rideType, 'mini');
    assert.equal(mini.distanceKm, 10);
  });

  test('every ride type follows the formula over a range of distances', () => {
    const distances = [1, 50, 99, 120, 250, 333, 512, 730, 1000, 1234, 1875, 2500, 4999, 7777, 12_345];
    for (const rideType of RIDE_TYPES) {
      for (const hundredths of distances) {
        const km = hundredths / 100;
        const expected = expectedQuote(rideType, hundredths, { num: 1, den: 1 });
        const actual = quote(rideType, km);
        const label = `${rideType} ${km} km`;
        assert.equal(actual.durationMinutes, expected.minutes, label);
        assert.equal(actual.distanceFare, expected.distanceFare, label);
        assert.equal(actual.timeFare, expected.timeFare, label);
        assert.equal(actual.fare, expected.fare, label);
        assert.equal(actual.baseFare, DOCUMENTED_RATES[rideType].base, label);
      }
    }
  });

  test('minutes are ceil(km × 2.5) for every distance in 0.1 km steps up to 100 km', () => {
    // 8.4 km is exactly 21 minutes at 24 km/h and 50 km exactly 125; neither may become a minute more.
    const wrong: string[] = [];
    for (let tenths = 1; tenths <= 1000; tenths++) {
      const km = tenths / 10;
      const expected = expectedQuote('mini', tenths * 10, { num: 1, den: 1 });
      const actual = quote('mini', km);
      if (actual.durationMinutes !== expected.minutes || actual.fare !== expected.fare) {
        wrong.push(`${km} km: ${actual.durationMinutes} min / ₹${actual.fare}, expected ${expected.minutes} min / ₹${expected.fare}`);
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} distances are charged the wrong minutes, e.g. ${wrong.slice(0, 5).join('; ')}`);
  });

  test('distance is taken to 10 m before pricing', () => {
    assert.equal(quote('mini', 10.004).distanceKm, 10);
    assert.equal(quote('mini', 10.006).distanceKm, 10.01);
    assert.equal(quote('mini', 10.004).fare, quote('mini', 10).fare);
  });

  test('short trips pay the minimum fare of their type', () => {
    for (const rideType of RIDE_TYPES) {
      for (const km of [0, 0.01, 0.5]) {
        assert.equal(quote(rideType, km).fare, DOCUMENTED_RATES[rideType].minimum, `${rideType} ${km} km`);
      }
    }
    // auto 0.5 km: 30 + 5 + 1.5 × 2 = 38 < 40; 1 km: 30 + 10 + 1.5 × 3 = 44.5 → 45.
    assert.equal(quote('auto', 1).fare, 45);
    // Around the minimum: mini 1.5 km = 50 + 18 + 2 × 4 = 76 < 80; 2 km = 50 + 24 + 10 = 84.
    assert.equal(quote('mini', 1.5).fare, 80);
    assert.equal(quote('mini', 2).fare, 84);
  });

  test('surge multiplies the fare, the minimum included, and rounds to whole rupees', () => {
    const surges = [
      { num: 11, den: 10 },
      { num: 5, den: 4 },
      { num: 13, den: 10 },
      { num: 3, den: 2 },
      { num: 17, den: 10 },
      { num: 2, den: 1 },
    ];
    for (const rideType of RIDE_TYPES) {
      for (const hundredths of [0, 75, 330, 1010, 2345]) {
        for (const surge of surges) {
          const expected = expectedQuote(rideType, hundredths, surge);
          const actual = quote(rideType, hundredths / 100, surge.num / surge.den);
          assert.equal(actual.fare, expected.fare, `${rideType} ${hundredths / 100} km × ${surge.num}/${surge.den}`);
          assert.equal(actual.surgeMultiplier, surge.num / surge.den);
        }
      }
    }
    assert.equal(quote('mini', 10, 1.5).fare, 330);
    assert.equal(quote('sedan', 0.5, 2).fare, 220, 'the minimum is surged too');
  });

  test('surge is clamped to the range 1 to 2.0', () => {
    assert.equal(quote('mini', 10, 3).fare, 440);
    assert.equal(quote('mini', 10, 3).surgeMultiplier, 2);
    assert.equal(quote('mini', 10, 2.0001).surgeMultiplier, 2);
    assert.equal(quote('mini', 10, 0.5).fare, 220);
    assert.equal(quote('mini', 10, 0.5).surgeMultiplier, 1);
    assert.equal(quote('mini', 10, 0).surgeMultiplier, 1);
  });

  test('estimatedFare equals fare, and fareMin ≤ fare ≤ fareMax in whole rupees', () => {
    for (const rideType of RIDE_TYPES) {
      for (const hundredths of [0, 100, 250, 730, 1000, 2500, 4321]) {
        for (const surge of [1, 1.5, 2]) {
          const actual = quote(rideType, hundredths / 100, surge);
          const label = `${rideType} ${hundredths / 100} km × ${surge}, fare ${actual.fare}`;
          assert.equal(actual.estimatedFare, actual.fare, label);
          assert.ok(actual.fareMin <= actual.fare && actual.fare <= actual.fareMax, label);
          assert.ok(Number.isInteger(actual.fareMin) && Number.isInteger(actual.fareMax), label);
          assert.ok(actual.fareMin < actual.fareMax, label);
        }
      }
    }
  });

  test('the range is fare −10 % rounded down to fare +10 % rounded up: ₹100 shows ₹90–₹110, ₹110 shows ₹99–₹121', () => {
    // auto 5 km: 30 + 50 + 1.5 × 13 = 99.5 → 100; the sedan minimum is 110; mini 3.5 km: 50 + 42 + 2 × 9 = 110.
    assert.equal(quote('auto', 5).fare, 100);
    assert.equal(quote('sedan', 0).fare, 110);
    assert.equal(quote('mini', 3.5).fare, 110);
    const range = (q: { fareMin: number; fareMax: number }) => [q.fareMin, q.fareMax];
    assert.deepEqual(range(quote('auto', 0)), [36, 44]);
    assert.deepEqual(range(quote('mini', 0)), [72, 88]);
    assert.deepEqual(range(quote('auto', 5)), [90, 110]);
    assert.deepEqual(range(quote('sedan', 0)), [99, 121]);
    assert.deepEqual(range(quote('mini', 3.5)), [99, 121]);
    // Every fare a mini trip up to 60 km can cost.
    const wrong: string[] = [];
    for (let hundredths = 0; hundredths <= 6000; hundredths += 5) {
      const actual = quote('mini', hundredths / 100);
      const low = Math.floor((actual.fare * 9) / 10);
      const high = Math.floor((actual.fare * 11 + 9) / 10);
      if (actual.fareMin !== low || actual.fareMax !== high) wrong.push(`₹${actual.fare}: ${actual.fareMin}–${actual.fareMax}, expected ${low}–${high}`);
    }
    assert.deepEqual([...new Set(wrong)], []);
  });

  test('the pickup time is given as a range around the expected wait, never below one minute', () => {
    const eta = (pickupEtaMinutes: number) => {
      const { etaMinMinutes, etaMaxMinutes } = quote('mini', 5, 1, pickupEtaMinutes);
      return [etaMinMinutes, etaMaxMinutes];
    };
    assert.deepEqual(eta(5), [3, 8]);
    assert.deepEqual(eta(7.6), [6, 11]);
    assert.deepEqual(eta(2), [1, 5]);
    assert.deepEqual(eta(0), [1, 4]);
    for (const wait of [0, 0.4, 1, 2.5, 3, 5, 12, 30]) {
      const [low, high] = eta(wait);
      assert.ok(Number.isInteger(low) && Number.isInteger(high) && low >= 1 && low <= high, `wait ${wait}: ${low}–${high}`);
      assert.ok(low <= Math.max(1, wait) && Math.round(wait) <= high, `wait ${wait} lies in ${low}–${high}`);
    }
  });
});

describe('roadDistanceKm', () => {
  test('is the great-circle distance × 1.3, to 10 m', () => {
    // One degree of latitude: 111.19508 km × 1.3 = 144.5536 → 144.55.
    assert.equal(roadDistanceKm({ lat: 12, lon: 77.6 }, { lat: 13, lon: 77.6 }), 144.55);
    assert.equal(roadDistanceKm({ lat: 12.9756, lon: 77.605 }, { lat: 12.9756, lon: 77.605 }), 0);
    const pairs = [
      [{ lat: 12.9716, lon: 77.5946 }, { lat: 12.9352, lon: 77.6245 }],
      [{ lat: 19.076, lon: 72.8777 }, { lat: 19.0896, lon: 72.8656 }],
      [{ lat: 28.6139, lon: 77.209 }, { lat: 28.5562, lon: 77.1 }],
      [{ lat: 12.9756, lon: 77.605 }, { lat: 18.94, lon: 72.8353 }],
    ];
    for (const [pickup, drop] of pairs) {
      const expected = Math.round(haversineKm(pickup, drop) * 1.3 * 100) / 100;
      assert.equal(roadDistanceKm(pickup, drop), expected);
      assert.equal(roadDistanceKm(drop, pickup), expected);
    }
    // MG Road to Mumbai CST: 836.405 km × 1.3 = 1087.33 km.
    assert.equal(roadDistanceKm(pairs[3][0], pairs[3][1]), 1087.33);
  });
});

describe('cancellationFee', () => {
  test('the fee table is 20 % within ₹20–₹60 after acceptance and 40 % within ₹50–₹180 after pickup', () => {
    assert.deepEqual(CANCELLATION_FEES, { ACCEPTED: { share: 0.2, min: 20, max: 60 }, PICKED: { share: 0.4, min: 50, max: 180 } });
  });

  test('a rider cancelling an ACCEPTED ride pays 20 % of the fare, at least ₹20 and at most ₹60', () => {
    const cases: Array<[fare: number, fee: number]> = [
      [30, 20], [80, 20], [100, 20], [101, 20], [103, 21], [122, 24], [123, 25], [200, 40], [297, 59], [300, 60], [301, 60], [1000, 60],
    ];
    for (const [fare, fee] of cases) assert.equal(cancellationFee('ACCEPTED', 'rider', fare), fee, `fare ${fare}`);
  });

  test('a rider cancelling a PICKED ride pays 40 % of the fare, at least ₹50 and at most ₹180', () => {
    const cases: Array<[fare: number, fee: number]> = [
      [30, 50], [100, 50], [125, 50], [126, 50], [127, 51], [200, 80], [333, 133], [449, 180], [450, 180], [451, 180], [2000, 180],
    ];
    for (const [fare, fee] of cases) assert.equal(cancellationFee('PICKED', 'rider', fare), fee, `fare ${fare}`);
  });

  test('no fee while REQUESTED, after the end, or when the driver or an admin cancels', () => {
    const statuses = ['REQUESTED', 'ACCEPTED', 'PICKED', 'COMPLETED', 'CANCELLED'];
    const actors: CancelledBy[] = ['rider', 'driver', 'admin'];
    for (const status of statuses) {
      for (const actor of actors) {
        const fee = cancellationFee(status, actor, 250);
        const expected = actor !== 'rider' ? null : status === 'ACCEPTED' ? 50 : status === 'PICKED' ? 100 : null;
        assert.equal(fee, expected, `${status} cancelled by ${actor}`);
      }
    }
  });
});
