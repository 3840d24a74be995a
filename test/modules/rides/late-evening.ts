import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { call } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { advanceToKolkataTime, assertOk } from '../../helpers/rides.ts';
import { operatorApp, type OperatorApp } from '../admin/operator.ts';

// The trip-fare and receipt tests' common ground: a mini rate with waiting, a night window and stops,
// tolls capped, a driver penalty, and a clock at 22:45 in Asia/Kolkata, so a trip of a few minutes'
// waiting and driving is dropped after 23:00.

export const MINI = { base: 60, baseKm: 3, perKm: 14, perMinute: 2, minimum: 80, waiting: { freeMinutes: 3, perMinute: 2 }, night: { start: '23:00', end: '05:00', multiplier: 1.5 }, perStop: 25 };
export const RULES: PricingRules = {
  ...FIRST_RULES,
  fares: { ...FIRST_RULES.fares, mini: MINI },
  driverShare: 0.85,
  tollsAndParking: { capPerRide: 300 },
  driverCancellation: { share: 0.1, min: 0, max: 100 },
  validCancellationReasons: ['Vehicle breakdown'],
};

/** An operator's app priced by RULES at 22:45, with a rider and a driver (tokens outlast the clock's hours). */
export async function lateEveningApp(): Promise<{ op: OperatorApp; rider: TestUser; driver: TestUser }> {
  const op = await operatorApp({ accessTokenTtlSeconds: 24 * 3600 });
  assertOk(await call(op.t.app, 'PUT', '/admin/pricing', { token: op.admin.token, body: RULES }));
  advanceToKolkataTime(op.t, 22, 45);
  return { op, rider: await signUp(op.t), driver: await signUp(op.t, { role: 'DRIVER' }) };
}
