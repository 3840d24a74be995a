import type { Clock } from '../../platform/clock.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { DemandStats } from './demand-stats.service.ts';
import { forecast, HOUR_MS, MODEL_CONSTANTS } from './insights.model.ts';
import type { PredictiveInsights, ZoneInsights } from './insights.schemas.ts';
import type { ZoneTable } from './zone-table.service.ts';

/** The live demand behind a fare quote (pricing/fare-quotes.ts): the surge multiplier and the expected pickup wait. */
export interface DemandSignal {
  surgeMultiplier: number;
  pickupEtaMinutes: number;
}

/** How long a demand signal serves fare quotes before it is computed again. */
export const SIGNAL_TTL_MS = 1_000;

/** What the demand model reads of the rides as they are now (rides' RideStats answers it; insights imports nothing of rides). */
export interface RideActivity {
  /** Rides in REQUESTED now (and the distinct riders holding them), and drivers on a ride now. */
  live(): Promise<{ openRequests: number; openRiders: number; busyDrivers: number }>;
  /** Drivers who accepted, finished or lost a ride since `since`, or are on one now. */
  driversActiveSince(since: number): Promise<number[]>;
}

export interface InsightsDependencies {
  demand: Pick<DemandStats, 'buckets'>;
  rides: RideActivity;
  drivers: Pick<DriversService, 'seenSince'>;
  zones: Pick<ZoneTable, 'at' | 'multiplierAt' | 'list'>;
  clock: Clock;
  timeZone: string;
}

/**
 * The demand model over the ride statistics as they are now. Every input is an aggregate (per-bucket
 * totals, indexed counts), so an answer costs a few small queries and nothing is cached: open
 * requests and busy drivers are exact at every call. Fare quotes read the surge from a signal
 * computed at most once a second per instance.
 */
export class InsightsService {
  readonly #deps: InsightsDependencies;
  #signal: { until: number; value: Promise<DemandSignal> } | undefined;

  constructor(deps: InsightsDependencies) {
    this.#deps = deps;
  }

  /** City-wide, or for the zone around `at`: the same answer with the zone's surge and numbers. */
  async current(at?: Point): Promise<ZoneInsights> {
    const insights = await this.#cityWide();
    if (!at) return insights;
    const zone = this.#deps.zones.at(at);
    const reason =
      `Zone ${zone.zone}: ${zone.demand} rider${zone.demand === 1 ? '' : 's'} waiting and ${zone.supply} available driver${zone.supply === 1 ? '' : 's'} ` +
      `(with half of the neighbouring zones'): pressure ${zone.pressure.toFixed(2)} → ${zone.multiplier.toFixed(2)}× (${zone.intensity}).`;
    return { ...insights, surgeRecommendation: { suggestedMultiplier: zone.multiplier, intensity: zone.intensity, reason }, zone };
  }

  /** The zone table as the dispatch leader last computed it. */
  zones() {
    const { at, zones } = this.#deps.zones.list();
    return { generatedAt: at === 0 ? null : new Date(at).toISOString(), zones };
  }

  /** What a fare quote needs: the pickup zone's surge (city-wide without a point) and the expected pickup wait. */
  async signalAt(pickup: Point | undefined): Promise<DemandSignal> {
    const signal = await this.demandSignal();
    return pickup ? { ...signal, surgeMultiplier: this.#deps.zones.multiplierAt(pickup) } : signal;
  }

  async #cityWide(): Promise<PredictiveInsights> {
    const now = this.#deps.clock.now();
    const c = MODEL_CONSTANTS;
    const activeSince = now - c.activeDriverHours * HOUR_MS;
    const recentSince = now - c.recentHours * HOUR_MS;
    const [buckets, live, activeDriverIds, seen] = await Promise.all([
      this.#deps.demand.buckets(now - c.lookbackDays * 24 * HOUR_MS),
      this.#deps.rides.live(),
      this.#deps.rides.driversActiveSince(activeSince),
      this.#deps.drivers.seenSince(activeSince),
    ]);
    // A bucket counts as recent when it began inside the recent window (or is the one it starts in).
    const recent = buckets.filter((bucket) => bucket.start + bucketMs() > recentSince);
    const accepted = recent.reduce((sum, bucket) => sum + bucket.accepted, 0);
    return forecast({
      now,
      timeZone: this.#deps.timeZone,
      buckets: buckets.map((bucket) => ({ start: bucket.start, count: bucket.riders })),
      sampleSize: buckets.reduce((sum, bucket) => sum + bucket.rides, 0),
      recentDemand: recent.reduce((sum, bucket) => sum + bucket.riders, 0),
      openRequests: live.openRequests,
      openRiders: live.openRiders,
      activeDrivers: new Set([...activeDriverIds, ...seen]).size,
      busyDrivers: live.busyDrivers,
      recentAcceptDelayMinutes: accepted === 0 ? undefined : recent.reduce((sum, bucket) => sum + bucket.acceptDelayMs, 0) / accepted / 60_000,
      recentAccepted: accepted,
    });
  }

  /** What fare quotes need: the surge multiplier and the expected pickup wait, at most a second old. */
  demandSignal(): Promise<DemandSignal> {
    const now = this.#deps.clock.now();
    if (!this.#signal || this.#signal.until <= now) {
      const value = this.#cityWide().then((insights) => ({
        surgeMultiplier: insights.surgeRecommendation.suggestedMultiplier,
        pickupEtaMinutes: insights.etaGuidance.predictedPickupMinutes,
      }));
      this.#signal = { until: now + SIGNAL_TTL_MS, value };
      // A failed computation is not kept: the next quote tries again.
      value.catch(() => {
        if (this.#signal?.value === value) this.#signal = undefined;
      });
    }
    return this.#signal.value;
  }
}

const bucketMs = () => MODEL_CONSTANTS.bucketMinutes * 60_000;
