import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { CoalescingWriter } from '../../platform/coalescing-writer.ts';
import { POSITION_TTL_MS, type DriverLocationIndex, type DriverPosition, type NearbyDriver } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import * as repository from './drivers.repository.ts';

export const PRESENCE_FLUSH_INTERVAL_MS = 1000;

/**
 * Where drivers are. Positions go to the location index at once (riders see them), and to the
 * driver_presence table once a second (activity statistics), never one write per report.
 */
export class DriversService {
  readonly #db: Kysely<Database>;
  readonly #index: DriverLocationIndex;
  readonly #clock: Clock;
  readonly #presence: CoalescingWriter<number, DriverPosition>;

  constructor(db: Kysely<Database>, index: DriverLocationIndex, clock: Clock, log: FastifyBaseLogger) {
    this.#db = db;
    this.#index = index;
    this.#clock = clock;
    this.#presence = new CoalescingWriter(
      (entries) => db.transaction().execute((trx) => repository.upsertPresence(trx, entries.map(([, p]) => p))),
      PRESENCE_FLUSH_INTERVAL_MS,
      log,
    );
  }

  async reportPosition(driverId: number, point: Point): Promise<DriverPosition> {
    const position = { driverId, lat: point.lat, lon: point.lon, updatedAt: this.#clock.now() };
    await this.#index.upsert(position);
    this.#presence.set(driverId, position);
    return position;
  }

  /** The driver's fresh position, if any. */
  position(driverId: number): Promise<DriverPosition | undefined> {
    return this.#index.get(driverId, this.#clock.now());
  }

  /** Drivers who reported a position since `since` (written within a second of the report). */
  seenSince(since: number): Promise<number[]> {
    return repository.driversSeenSince(this.#db, since);
  }

  goOffline(driverId: number): Promise<void> {
    return this.#index.remove(driverId);
  }

  nearby(center: Point, radiusKm: number, limit: number): Promise<NearbyDriver[]> {
    return this.#index.nearby(center, radiusKm, limit, this.#clock.now());
  }

  /** A driver position as the API shows it. */
  view(position: DriverPosition) {
    return { ...position, updatedAt: toIso(position.updatedAt), visibleUntil: toIso(position.updatedAt + POSITION_TTL_MS) };
  }

  close(): Promise<void> {
    return this.#presence.close();
  }
}
