import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Counters } from '../../platform/counters.ts';
import { badRequest, tooManyRequests } from '../../platform/errors.ts';

/** Wrong ride codes allowed per code and window before the ride answers 429. */
export const RIDE_OTP_MAX_TRIES = 5;
export const RIDE_OTP_WINDOW_MS = 10 * 60_000;

/** Two different 4-digit codes: the rider's start (pickup) and end (drop-off) codes. */
export function makeRideCodes(): { startOtp: string; endOtp: string } {
  const start = String(randomInt(0, 10_000)).padStart(4, '0');
  let end = start;
  while (end === start) end = String(randomInt(0, 10_000)).padStart(4, '0');
  return { startOtp: start, endOtp: end };
}

/**
 * Checks a code the driver enters. Each of a ride's two codes allows five tries per window, counted
 * across instances; the sixth is refused even if right.
 */
export class RideCodes {
  readonly #counters: Counters;

  constructor(counters: Counters) {
    this.#counters = counters;
  }

  async check(rideId: number, which: 'start' | 'end', given: string | undefined, expected: string): Promise<void> {
    if (given === undefined) throw badRequest(`otp is required: the ride's ${which}Otp`);
    const tries = await this.#counters.increment(`ride-otp:${rideId}:${which}`, RIDE_OTP_WINDOW_MS);
    if (tries.count > RIDE_OTP_MAX_TRIES) {
      throw tooManyRequests('Too many wrong codes for this ride; wait before trying again', tries.resetInMs / 1000, 'OTP_LOCKED');
    }
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw badRequest('The code does not match', 'OTP_MISMATCH');
  }
}
