import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import type { SharedCache } from '../../platform/shared-cache.ts';
import type { ZoneSurge } from './zone-surge.ts';

const KEY = 'zones:surge';
/** Every instance reads the newest table this often, so all of them quote a new surge within a second. */
export const ZONE_REFRESH_MS = 1_000;
/** A table nobody renewed for this long is dropped: no surge from stale numbers. */
export const ZONE_TABLE_TTL_MS = 30_000;

interface Stored {
  at: number;
  zones: ZoneSurge[];
}

/**
 * The surge of each zone, computed by whichever instance leads dispatch and shared with every
 * instance (in-process, or through Redis), each of which keeps a copy so fare quotes read memory.
 */
export class ZoneTable {
  readonly #cache: SharedCache;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  #table: Stored = { at: 0, zones: [] };
  #byZone = new Map<string, ZoneSurge>();
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: { cache: SharedCache; clock: Clock; log: FastifyBaseLogger }) {
    this.#cache = deps.cache;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  start(): void {
    this.#timer = setInterval(() => void this.refresh(), ZONE_REFRESH_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** The leader's new table, for every instance. */
  async publish(zones: ZoneSurge[]): Promise<void> {
    const stored = { at: this.#clock.now(), zones };
    this.#keep(stored);
    await this.#cache.set(KEY, JSON.stringify(stored), ZONE_TABLE_TTL_MS);
  }

  async refresh(): Promise<void> {
    try {
      const text = await this.#cache.get(KEY);
      if (text === undefined) {
        if (this.#table.at < this.#clock.now() - ZONE_TABLE_TTL_MS) this.#keep({ at: 0, zones: [] });
        return;
      }
      const stored = JSON.parse(text) as Stored;
      if (stored.at > this.#table.at) this.#keep(stored);
    } catch (error) {
      this.#log.warn({ err: error }, 'zone surge table not refreshed');
    }
  }

  /** The multiplier where a ride is picked up (1.0 where nobody waits). */
  multiplierAt(point: Point): number {
    return this.#byZone.get(zoneOf(point))?.multiplier ?? 1;
  }

  at(point: Point): ZoneSurge {
    const zone = zoneOf(point);
    return this.#byZone.get(zone) ?? { zone, demand: 0, supply: 0, pressure: 0, multiplier: 1, intensity: 'NORMAL' };
  }

  list(): { at: number; zones: ZoneSurge[] } {
    return this.#table;
  }

  #keep(stored: Stored): void {
    this.#table = stored;
    this.#byZone = new Map(stored.zones.map((zone) => [zone.zone, zone]));
  }
}
