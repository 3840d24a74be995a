import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { SharedCache } from '../../platform/shared-cache.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { DemandSignal } from '../rides/pricing.ts';
import type { RidesService } from '../rides/rides.service.ts';
import { forecast, MODEL, MODEL_CONSTANTS, type Insights } from './insights.model.ts';

/** Insights are recomputed at most every 30 seconds, and every caller (and instance) shares them. */
export const INSIGHTS_CACHE_MS = 30_000;
const CACHE_KEY = `insights:${MODEL}`;
const HOUR_MS = 3_600_000;

export interface InsightsDependencies {
  rides: Pick<RidesService, 'demandStats'>;
  drivers: Pick<DriversService, 'seenSince'>;
  cache: SharedCache;
  clock: Clock;
  timeZone: string;
  log: FastifyBaseLogger;
}

export class InsightsService {
  readonly #deps: InsightsDependencies;
  #computing: Promise<Insights> | undefined;
  /** The last cached text and its parsed form: every booking reads the surge, most often unchanged. */
  #parsed: { text: string; insights: Insights } | undefined;

  constructor(deps: InsightsDependencies) {
    this.#deps = deps;
  }

  /** The cached insights, or fresh ones when the cache is empty; concurrent callers share one computation. */
  async current(): Promise<Insights> {
    const cached = await this.#deps.cache.get(CACHE_KEY).catch((error: unknown) => {
      this.#deps.log.warn({ err: error }, 'insights cache unavailable; computing');
      return undefined;
    });
    if (cached) {
      if (this.#parsed?.text !== cached) this.#parsed = { text: cached, insights: JSON.parse(cached) as Insights };
      return this.#parsed.insights;
    }
    this.#computing ??= this.compute()
      .then(async (insights) => {
        // Kept until 30 s after the moment the numbers describe, not after they were stored.
        const ttl = INSIGHTS_CACHE_MS - (this.#deps.clock.now() - Date.parse(insights.generatedAt));
        if (ttl <= 0) return insights;
        await this.#deps.cache.set(CACHE_KEY, JSON.stringify(insights), ttl).catch((error: unknown) => {
          this.#deps.log.warn({ err: error }, 'insights cache unavailable; not stored');
        });
        return insights;
      })
      .finally(() => {
        this.#computing = undefined;
      });
    return this.#computing;
  }

  /** The model over the database as it is now, bypassing the cache. */
  async compute(): Promise<Insights> {
    const now = this.#deps.clock.now();
    const c = MODEL_CONSTANTS;
    const activeSince = now - c.activeDriverHours * HOUR_MS;
    const [stats, seen] = await Promise.all([
      this.#deps.rides.demandStats({
        historySince: now - c.lookbackDays * 24 * HOUR_MS,
        recentSince: now - c.recentHours * HOUR_MS,
        activeSince,
        bucketMs: c.bucketMinutes * 60_000,
      }),
      this.#deps.drivers.seenSince(activeSince),
    ]);
    return forecast({
      now,
      timeZone: this.#deps.timeZone,
      buckets: stats.buckets,
      recentRides: stats.recentRides,
      openRequests: stats.openRequests,
      activeDrivers: new Set([...stats.activeDriverIds, ...seen]).size,
      busyDrivers: stats.busyDrivers,
      recentAcceptDelayMinutes: stats.acceptDelay.meanMs === undefined ? undefined : stats.acceptDelay.meanMs / 60_000,
      recentAccepted: stats.acceptDelay.accepted,
    });
  }

  /** What pricing needs: the surge multiplier and the expected pickup wait, from the shared insights. */
  async demandSignal(): Promise<DemandSignal> {
    const insights = await this.current();
    return {
      surgeMultiplier: insights.surgeRecommendation.suggestedMultiplier,
      pickupEtaMinutes: insights.etaGuidance.predictedPickupMinutes,
    };
  }
}
