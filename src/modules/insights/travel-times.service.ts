import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { districtOf, zoneOf } from '../../platform/geo/zones.ts';
import type { Router } from '../../platform/routing/router.ts';
import * as repository from './travel-times.repository.ts';
import { cellKeys, hourOfWeek, tripRatio, TravelTimeCells } from './travel-times.model.ts';

/** A completed trip as insights learns from it. */
export interface CompletedTrip {
  pickup: Point;
  drop: Point;
  pickedAt: number;
  completedAt: number;
}

/** Cells other instances learned reach this one's quotes within this time. */
export const TRAVEL_TIMES_REFRESH_MS = 60_000;

export interface TravelTimesDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The router whose times are corrected: a trip's ratio is its actual time over this router's. */
  router: Pick<Router, 'route'>;
  /** SERVICE_TIMEZONE: hours of week are local. */
  timeZone: string;
}

/**
 * Travel times that learn (travel-times.model.ts has the arithmetic): each completed trip (fed by
 * `ride.moved`, insights.module.ts) adds its ratio of actual to router minutes to its cell, stored at
 * once; quotes read the cells from memory, which every instance reloads once a minute.
 */
export class TravelTimes {
  readonly #deps: TravelTimesDependencies;
  #cells = new TravelTimeCells();
  #refresh: NodeJS.Timeout | undefined;

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
  }

  /** The factor for the router's minutes of a trip from `pickup` to `drop` starting at `at` (1 until its cell has trips). */
  correction(pickup: Point, drop: Point, at: number): number {
    return this.#cells.correction(cellKeys(zoneOf(pickup), zoneOf(drop), hourOfWeek(at, this.#deps.timeZone), districtOf));
  }

  /** Learns from a completed trip: pickup to drop, in the hour of week it was picked up. */
  async recordTrip({ pickup, drop, pickedAt, completedAt }: CompletedTrip): Promise<void> {
    const route = await this.#deps.router.route(pickup, drop);
    const ratio = tripRatio((completedAt - pickedAt) / 60_000, route.durationMinutes);
    if (ratio === undefined) return;
    const [pickupZone, dropZone, hour] = [zoneOf(pickup), zoneOf(drop), hourOfWeek(pickedAt, this.#deps.timeZone)];
    await this.#deps.transactions.run((tx) => repository.addTrip(tx.db, pickupZone, dropZone, hour, ratio));
    this.#cells.observe(cellKeys(pickupZone, dropZone, hour, districtOf), ratio);
  }

  async #load(): Promise<void> {
    const cells = new TravelTimeCells();
    for (const row of await repository.allCells(this.#deps.db)) cells.add(cellKeys(row.pickupZone, row.dropZone, row.hourOfWeek, districtOf), row.trips, row.ratioSum);
    this.#cells = cells;
  }
}
