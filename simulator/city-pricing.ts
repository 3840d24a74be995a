import type { ApiClient } from './api.ts';
import type { PricingRules, PricingVersion } from './api-types.ts';
import { nightOnServiceClock, type RunTimeline } from './night.ts';
import type { Scheduler } from './clock.ts';

/** What the simulated city lets a driver add in tolls and parking to one ride. */
const TOLLS_CAP_INR = 500;
/** The simulated city's night charge where the service's version has none (the night then costs nothing extra and no ride counts as a night ride). */
const NIGHT_MULTIPLIER = 1.25;

/**
 * The simulated city's own pricing, saved as new versions on a service the simulator may reprice (the
 * embedded services of `demo` and `--compare`, or `--city-pricing`): the version in force, with
 * tolls and parking passed through up to TOLLS_CAP_INR a ride (the first version's cap is ₹0, which
 * would refuse every one the simulated drivers add), a night charge of at least NIGHT_MULTIPLIER, and
 * each ride type's night window moved onto the wall-clock minutes in which the simulated night runs
 * (night.ts). After each simulated night a version moves the windows onto the next one.
 */
export class CityPricing {
  readonly #admin: ApiClient;
  /** The version found at the start: its night windows are the simulated day's. */
  readonly #found: PricingVersion;
  readonly #timeZone: string;

  private constructor(admin: ApiClient, found: PricingVersion, timeZone: string) {
    this.#admin = admin;
    this.#found = found;
    this.#timeZone = timeZone;
  }

  static async read(admin: ApiClient): Promise<CityPricing> {
    const [pricing, timeZone] = await Promise.all([admin.pricing(), admin.serviceTimeZone()]);
    return new CityPricing(admin, pricing.current, timeZone);
  }

  /** Saves the city's version for the simulated night under way or next, and again after each night ends. */
  async follow(timeline: RunTimeline, scheduler: Scheduler): Promise<void> {
    const nightEnds = await this.#save(timeline, scheduler.clock.now());
    if (nightEnds !== null) scheduler.at(nightEnds, () => this.follow(timeline, scheduler));
  }

  /** Saves the version with the windows of the nights ending after `afterSimMs`; returns when the first of them ends. */
  async #save(timeline: RunTimeline, afterSimMs: number): Promise<number | null> {
    const { rules, nightEnds } = cityRules(this.#found, timeline, afterSimMs, this.#timeZone);
    await this.#admin.savePricing(rules);
    return nightEnds;
  }
}

/** The version `found` as the simulated city prices it at simulated ms `afterSimMs` (see CityPricing). */
export function cityRules(found: PricingVersion, timeline: RunTimeline, afterSimMs: number, timeZone: string): { rules: PricingRules; nightEnds: number | null } {
  const { fares, surgeFloor, surgeCap, driverShare, cancellation, driverCancellation, validCancellationReasons, compliance } = found;
  let nightEnds: number | null = null;
  const moved = Object.fromEntries(
    Object.entries(fares).map(([type, rate]) => {
      const night = nightOnServiceClock(rate.night, timeline, afterSimMs, timeZone);
      if (night) nightEnds = Math.min(nightEnds ?? Infinity, night.endsAtSimMs);
      // A night too short to place on the wall clock at this speed keeps the found window (and prices nothing as night).
      const window = night?.window ?? { start: rate.night.start, end: rate.night.end };
      return [type, { ...rate, night: { ...window, multiplier: Math.max(rate.night.multiplier, NIGHT_MULTIPLIER) } }];
    }),
  ) as PricingRules['fares'];
  const rules: PricingRules = {
    fares: moved,
    surgeFloor,
    surgeCap,
    driverShare,
    tollsAndParking: { capPerRide: TOLLS_CAP_INR },
    cancellation,
    driverCancellation,
    validCancellationReasons,
    ...(compliance ? { compliance } : {}),
  };
  return { rules, nightEnds };
}
