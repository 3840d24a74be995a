import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compactVerify, importJWK } from 'jose';
import { receiptFigures, receiptMismatches } from '../../../src/modules/rides/ride-receipt.ts';
import { canonicalJson, checkSignature } from '../../../src/platform/receipt-signing.ts';
import type { PricingRules, PublicPricingVersion, ReceiptKeySet, SignedReceipt } from '../../../src/contract/types.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { acceptedRide, advanceToKolkataTime, assertError, assertOk, bookRide, completedRide, driverWithVehicle, pickedRide, tripNorth } from '../../helpers/rides.ts';

// Receipts anyone can check (decisions.md "Fare policy"): GET /rides/{id}/receipt signed with the
// service's Ed25519 key, published at /.well-known/receipt-keys, recomputable from the pricing version.

describe('receipts', () => {
  let t: TestApp;
  let admin: TestUser;
  let rider: TestUser;
  let driver: TestUser;
  let keys: ReceiptKeySet;

  const receiptOf = async (user: TestUser, rideId: number) => call<SignedReceipt>(t.app, 'GET', `/rides/${rideId}/receipt`, { token: user.token });
  /** A pricing version as anyone can read it. */
  const rulesOf = async (version: number): Promise<PublicPricingVersion> => {
    const reply = await call<PublicPricingVersion>(t.app, 'GET', `/pricing/versions/${version}`);
    assertOk(reply, 'pricing version');
    return reply.body;
  };

  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
    rider = await signUp(t);
    driver = await driverWithVehicle(t, 'suv');
    const reply = await call<ReceiptKeySet>(t.app, 'GET', '/.well-known/receipt-keys');
    assertOk(reply, 'keys');
    keys = reply.body;
  });
  after(() => t.close());

  test('the receipt keys are public: one Ed25519 public key named by its thumbprint, and nothing private', () => {
    assert.equal(keys.keys.length, 1);
    const [key] = keys.keys;
    assert.deepEqual(Object.keys(key).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    assert.equal(key.crv, 'Ed25519');
    assert.match(key.kid, /^[A-Za-z0-9_-]{43}$/);
  });

  test("a completed ride's receipt verifies with the published key, by this service's check and by a JOSE library", async () => {
    const { booked } = await completedRide(t, rider, driver, { rideType: 'sedan', ...tripNorth(7) });
    const reply = await receiptOf(rider, booked.id);
    assertOk(reply, 'receipt');
    const { receipt, signature } = reply.body;
    assert.equal(receipt.kind, 'trip');
    assert.equal(receipt.rideId, booked.id);
    assert.equal(receipt.fare, booked.fare);
    assert.equal(receipt.pricingVersion, booked.pricingVersion);
    assert.deepEqual(checkSignature(receipt, signature, keys.keys), { ok: true, kid: keys.keys[0].kid });
    // Detached: the canonical JSON goes between the dots, and any JOSE library checks the rest.
    const [header, , value] = signature.split('.');
    const attached = `${header}.${Buffer.from(canonicalJson(receipt)).toString('base64url')}.${value}`;
    const verified = await compactVerify(attached, await importJWK(keys.keys[0], 'EdDSA'));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(verified.payload)), receipt);
  });

  test('the receipt shows the inputs, the parts adding up to the fare, the driver share and the platform fee', async () => {
    const { booked } = await completedRide(t, rider, driver, { rideType: 'mini', ...tripNorth(9) });
    const { receipt } = (await receiptOf(driver, booked.id)).body;
    assert.equal(receipt.inputs.distanceKm, booked.distanceKm);
    assert.equal(receipt.inputs.minutes, booked.durationMinutes);
    assert.equal(receipt.inputs.surgeMultiplier, booked.surgeMultiplier);
    assert.equal(typeof receipt.inputs.zone, 'string');
    assert.deepEqual([receipt.inputs.waitingMinutes, receipt.inputs.stops, receipt.inputs.night, receipt.inputs.tollsInInr, receipt.inputs.parkingInInr], [0, 0, false, 0, 0]);
    const parts = Object.fromEntries(receipt.breakdown.map(({ part, amountInInr }) => [part, amountInInr]));
    assert.ok(parts.base > 0 && parts.distance > 0 && parts.time > 0, JSON.stringify(parts));
    const total = receipt.breakdown.reduce((sum, part) => sum + part.amountInInr, 0);
    assert.equal(Math.round(total * 100) / 100, receipt.fare);
    // A version without a driver share of its own: the guidelines' 80 %.
    assert.equal(receipt.driverShare, 0.8);
    assert.equal(receipt.driverAmountInInr, Math.round(receipt.fare * 0.8 * 100) / 100);
    assert.equal(Math.round((receipt.driverAmountInInr + receipt.platformFeeInInr) * 100) / 100, receipt.fare);
  });

  test('the fare recomputed from the receipt and its pricing version is the fare charged', async () => {
    const { booked } = await completedRide(t, rider, driver, { rideType: 'sedan', ...tripNorth(4) });
    const { receipt } = (await receiptOf(rider, booked.id)).body;
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, await rulesOf(receipt.pricingVersion))), []);
  });

  test('a receipt changed after signing fails the check, and names what does not match', async () => {
    const { booked } = await completedRide(t, rider, driver, tripNorth(5));
    const { receipt, signature } = (await receiptOf(rider, booked.id)).body;
    const cheaper = { ...receipt, fare: receipt.fare - 10 };
    const check = checkSignature(cheaper, signature, keys.keys);
    assert.equal(check.ok, false);
    const stretched = { ...receipt, inputs: { ...receipt.inputs, distanceKm: receipt.inputs.distanceKm + 3 } };
    assert.equal(checkSignature(stretched, signature, keys.keys).ok, false);
    // Even re-signed, a fare that its inputs do not give is told apart by recomputing it.
    assert.match(receiptMismatches(cheaper, receiptFigures(cheaper, await rulesOf(receipt.pricingVersion))).join('\n'), /^fare: the receipt says \d+, the pricing version gives \d+/);
  });

  test('the same ride gives the same signed receipt every time; the driver and an operator get it too', async () => {
    const { booked } = await completedRide(t, rider, driver, tripNorth(3));
    const [first, again, drivers, operators] = await Promise.all([receiptOf(rider, booked.id), receiptOf(rider, booked.id), receiptOf(driver, booked.id), receiptOf(admin, booked.id)]);
    for (const reply of [first, again, drivers, operators]) assertOk(reply, 'receipt');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(drivers.body, first.body);
    assert.deepEqual(operators.body, first.body);
  });

  test('nobody else gets a ride\'s receipt: another user 403, no token 401, an unknown ride 404', async () => {
    const { booked } = await completedRide(t, rider, driver, tripNorth(3));
    const stranger = await signUp(t);
    assertError(await receiptOf(stranger, booked.id), 403, 'FORBIDDEN');
    assertError(await call(t.app, 'GET', `/rides/${booked.id}/receipt`), 401);
    assertError(await receiptOf(rider, 99_999_999), 404, 'NOT_FOUND');
  });

  test('a ride not yet completed has no receipt: 409 RECEIPT_NOT_AVAILABLE', async () => {
    const requested = await bookRide(t, rider);
    assertError(await receiptOf(rider, requested.id), 409, 'RECEIPT_NOT_AVAILABLE');
    const busy = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, busy);
    assertError(await receiptOf(busy, booked.id), 409, 'RECEIPT_NOT_AVAILABLE');
    const free = await bookRide(t, rider);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${free.id}`, { token: rider.token, body: { reason: 'changed plans' } }), 'cancel');
    assertError(await receiptOf(rider, free.id), 409, 'RECEIPT_NOT_AVAILABLE');
  });

  test("a rider's cancellation fee has a receipt of its own that verifies and recomputes", async () => {
    const { booked } = await acceptedRide(t, rider, driver, { rideType: 'suv', ...tripNorth(12) });
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 'too late' } });
    assertOk(cancelled, 'cancel');
    const reply = await receiptOf(rider, booked.id);
    assertOk(reply, 'receipt');
    const { receipt, signature } = reply.body;
    assert.equal(receipt.kind, 'cancellation');
    assert.equal(receipt.inputs.cancelledWhile, 'ACCEPTED');
    assert.equal(receipt.fare, cancelled.body.cancellationFee);
    assert.deepEqual(receipt.breakdown, [{ part: 'cancellationFee', amountInInr: cancelled.body.cancellationFee }]);
    assert.equal(checkSignature(receipt, signature, keys.keys).ok, true);
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, await rulesOf(receipt.pricingVersion))), []);
  });

  test("under a version with a driver share and a night window, a ride dropped at night shows its night part and the version's share, and recomputes", async () => {
    const night: PricingRules = {
      ...FIRST_RULES,
      fares: { ...FIRST_RULES.fares, sedan: { ...FIRST_RULES.fares.sedan, baseKm: 2, night: { start: '22:00', end: '06:00', multiplier: 1.25 } } },
      driverShare: 0.85,
    };
    assertOk(await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: night }), 'new pricing version');
    // 23:30 in the service's zone (Asia/Kolkata, +5:30): the drop, minutes later, is inside the window.
    advanceToKolkataTime(t, 23, 30);
    for (const user of [rider, driver]) {
      const login = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
      user.token = login.body.accessToken;
    }
    const { booked } = await completedRide(t, rider, driver, { rideType: 'sedan', ...tripNorth(8) });
    const { receipt, signature } = (await receiptOf(rider, booked.id)).body;
    assert.equal(receipt.inputs.night, true);
    assert.ok(receipt.breakdown.some((part) => part.part === 'night' && part.amountInInr > 0), JSON.stringify(receipt.breakdown));
    assert.equal(receipt.fare, booked.fare);
    assert.equal(receipt.driverShare, 0.85);
    assert.equal(receipt.driverAmountInInr, Math.round(receipt.fare * 0.85 * 100) / 100);
    assert.equal(checkSignature(receipt, signature, keys.keys).ok, true);
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, await rulesOf(receipt.pricingVersion))), []);
  });
});

describe('canonical JSON', () => {
  test('sorts keys at every depth and writes no whitespace, so key order never changes the bytes signed', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], e: true, f: 1.5 }), '{"a":[{"c":"x","d":null}],"b":1,"e":true,"f":1.5}');
    assert.equal(canonicalJson({ z: 1, a: 2 }), canonicalJson({ a: 2, z: 1 }));
    assert.throws(() => canonicalJson({ a: Number.NaN }));
  });
});

describe('a receipt\'s arithmetic', () => {
  const rules: PricingRules = {
    ...FIRST_RULES,
    fares: {
      ...FIRST_RULES.fares,
      mini: { base: 60, baseKm: 3, perKm: 14, perMinute: 2, minimum: 80, waiting: { freeMinutes: 3, perMinute: 2 }, night: { start: '23:00', end: '05:00', multiplier: 1.5 }, perStop: 25 },
    },
    driverShare: 0.85,
  };
  const inputs = { distanceKm: 10, minutes: 25, waitingMinutes: 4, zone: null, surgeMultiplier: 1.2, night: true, stops: 1, tollsInInr: 65, parkingInInr: 30, cancelledWhile: null };

  test('a trip with waiting, a stop, a toll, parking, surge and a night drop: every part, adding up to the fare', () => {
    const figures = receiptFigures({ kind: 'trip', rideType: 'mini', inputs }, rules);
    // 60 + 14 × 7 + 2 × 25 = 208; × 1.2 × 1.5 = 374.4 → 374; + 25 + 4 × 2 + 65 + 30 = 502.
    assert.deepEqual(figures.breakdown, [
      { part: 'base', amountInInr: 60 },
      { part: 'distance', amountInInr: 98 },
      { part: 'time', amountInInr: 50 },
      { part: 'surge', amountInInr: 41.6 },
      { part: 'night', amountInInr: 124.8 },
      { part: 'stops', amountInInr: 25 },
      { part: 'waiting', amountInInr: 8 },
      { part: 'tolls', amountInInr: 65 },
      { part: 'parking', amountInInr: 30 },
      { part: 'rounding', amountInInr: -0.4 },
    ]);
    assert.equal(figures.fare, 502);
    // Tolls and parking are all the driver's; the share is of the rest.
    assert.deepEqual([figures.driverShare, figures.driverAmountInInr, figures.platformFeeInInr], [0.85, Math.round((407 * 0.85 + 95) * 100) / 100, Math.round((502 - (407 * 0.85 + 95)) * 100) / 100]);
  });
});
