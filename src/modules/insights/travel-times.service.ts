import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import { haversineKm, type Point } from '../../platform/geo/geo.ts';
import { districtOf, zoneOf } from '../../platform/geo/zones.ts';
import type { LearnedDetours } from '../../platform/routing/learned-detours.ts';
import type { Router } from '../../platform/routing/router.ts';
import { ROAD_FACTOR } from '../../platform/routing/straight-router.ts';
import * as repository from './travel-times.repository.ts';
import { cellKeys, detourKeys, detourRatio, hourOfWeek, SHRINK_TRIPS, tripRatio, TravelTimeCells } from './travel-times.model.ts';

/** A completed trip as insights learns from it. */
export interface CompletedTrip {
  pickup: Point;
  drop: Point;
  pickedAt: number;
  completedAt: number;
  /** Kilometres driven along the driver's positions (travel-times.model.ts drivenKm); undefined when not measured so. */
  drivenKm?: number;
}

/** Cells other instances learned reach this one's quotes within this time. */
export const TRAVEL_TIMES_REFRESH_MS = 60_000;
/**
 * This instance's own trips reach the router's detour factors within this time: at most one rebuild of
 * the factors (and of the router's memo of places, see learned-detours.ts) a second, however many trips end.
 */
export const DETOURS_PUBLISH_MS = 1_000;

export interface TravelTimesDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The router whose times are corrected: a trip's ratio is its actual time over this router's. */
  router: Pick<Router, 'route'>;
  /** SERVICE_TIMEZONE: hours of week are local. */
  timeZone: string;
  /** Where the `straight` router reads its detour factors: replaced with what is learned. */
  detours: Pick<LearnedDetours, 'replace'>;
}

/**
 * Travel times that learn (travel-times.model.ts has the arithmetic): each completed trip (fed by
 * `ride.moved`, insights.module.ts) adds its ratio of actual to router minutes to its cell, and its
 * ratio of driven to great-circle kilometres to its pickup zone's detour cell, stored at once; quotes
 * and the straight router read them from memory, which every instance reloads once a minute.
 */
export class TravelTimes {
  readonly #deps: TravelTimesDependencies;
  #cells = new TravelTimeCells();
  #detours = new TravelTimeCells(SHRINK_TRIPS, ROAD_FACTOR);
  /** The zones detour cells were learned for: the factors handed to the router. */
  #detourZones = new Set<string>();
  #refresh: NodeJS.Timeout | undefined;
  #publishing: NodeJS.Timeout | undefined;

  constructor(deps: TravelTimesDependencies) {
    this.#deps = deps;
  }

  async start(): Promise<void> {
    await this.#load();
    this.#refresh = setInterval(() => {
      this.#load().catch((error: unknown) => this.#deps.log.warn({ err: error }, 'learned travel times not reloaded'));
    }, TRAVEL_TIMES_REFRESH_MS).unref();
  }

  stop(): void {
    clearInterval(this.#refresh);
    clearTimeout(this.#publishing);
  }

  /** The factor for the router's minutes of a trip from `pickup` to `drop` starting at `at` (1 until its cell has trips). */
  correction(pickup: Point, drop: Point, at: number): number {
    return this.#cells.correction(cellKeys(zoneOf(pickup), zoneOf(drop), hourOfWeek(at, this.#deps.timeZone), districtOf));
  }

  /** Learns from a completed trip: pickup to drop, in the hour of week it was picked up. */
  async recordTrip({ pickup, drop, pickedAt, completedAt, drivenKm }: CompletedTrip): Promise<void> {
    const detour = drivenKm === undefined ? undefined : detourRatio(drivenKm, haversineKm(pickup, drop));
    if (detour !== undefined) await this.#recordDetour(zoneOf(pickup), detour);
    const route = await this.#deps.router.route(pickup, drop);
    const ratio = tripRatio((completedAt - pickedAt) / 60_000, route.durationMinutes);
    if (ratio === undefined) return;
    const [pickupZone, dropZone, hour] = [zoneOf(pickup), zoneOf(drop), hourOfWeek(pickedAt, this.#deps.timeZone)];
    await this.#deps.transactions.run((tx) => repository.addTrip(tx.db, pickupZone, dropZone, hour, ratio));
    this.#cells.observe(cellKeys(pickupZone, dropZone, hour, districtOf), ratio);
  }

  async #recordDetour(zone: string, ratio: number): Promise<void> {
    await this.#deps.transactions.run((tx) => repository.addDetour(tx.db, zone, ratio));
    this.#detours.observe(detourKeys(zone, districtOf), ratio);
    this.#detourZones.add(zone);
    this.#publishing ??= setTimeout(() => {
      this.#publishing = undefined;
      this.#publishDetours();
    }, DETOURS_PUBLISH_MS).unref();
  }

  async #load(): Promise<void> {
    const [rows, detourRows] = await Promise.all([repository.allCells(this.#deps.db), repository.allDetourCells(this.#deps.db)]);
    const cells = new TravelTimeCells();
    for (const row of rows) cells.add(cellKeys(row.pickupZone, row.dropZone, row.hourOfWeek, districtOf), row.trips, row.ratioSum);
    this.#cells = cells;
    const detours = new TravelTimeCells(SHRINK_TRIPS, ROAD_FACTOR);
    for (const row of detourRows) detours.add(detourKeys(row.zone, districtOf), row.trips, row.ratioSum);
    this.#detours = detours;
    this.#detourZones = new Set(detourRows.map((row) => row.zone));
    this.#publishDetours();
  }

  /** Each learned zone's factor and its district's (for the zones of the district no trip started in yet). */
  #publishDetours(): void {
    const zones = new Map<string, number>();
    const districts = new Map<string, number>();
    for (const zone of this.#detourZones) {
      const [city, district] = detourKeys(zone, districtOf);
      zones.set(zone, this.#detours.correction(detourKeys(zone, districtOf)));
      if (!districts.has(district)) districts.set(district, this.#detours.correction([city, district]));
    }
    this.#deps.detours.replace({ city: this.#detours.correction(['*']), districts, zones });
  }
}
