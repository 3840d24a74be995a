import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { CoalescingWriter } from '../../platform/coalescing-writer.ts';
import { AppError, tooManyRequests } from '../../platform/errors.ts';
import { POSITION_TTL_MS, type DriverLocationIndex, type DriverPosition, type NearbyDriver, type PositionColumns } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { PerSecondLimit } from '../../platform/per-second-limit.ts';
import * as repository from './drivers.repository.ts';
import type { DriverLocation } from './drivers.schemas.ts';

export const PRESENCE_FLUSH_INTERVAL_MS = 1000;
/** After the live index failed, reads with a fallback skip it this long instead of each waiting for its timeout (a frozen Redis). */
const INDEX_RETRY_MS = 2_000;
const UNREACHABLE = Symbol('unreachable');
/**
 * A driver whose realtime connection was lost stays online this long without a report: an app that
 * reconnects (a tunnel, a switch of network) reports again within it (every 5 s), a closed one never
 * does, and goes offline instead of holding offers for two minutes.
 */
export const RECONNECT_GRACE_MS = 10_000;

export interface DriversDependencies {
  db: Db;
  transactions: Transactions;
  index: DriverLocationIndex;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where positions, drivers going offline and the restored drivers are announced. */
  events: DomainEventsDispatcher;
  /** DRIVER_POSITIONS_PER_SECOND: a driver's reports over every path together (0: no limit). */
  positionsPerSecond: number;
  /** RECONNECT_GRACE_MS unless a test shortens it. */
  reconnectGraceMs?: number;
}

/**
 * Where drivers are: the one owner of driver positions. A report goes to the location index at
 * once (riders and rides read it there) and to the driver_presence table once a second (activity
 * statistics, and the positions a restarted instance shows again), never one write per report.
 */
/** Positions written at once while restoring. */
const RESTORE_CHUNK = 200;

export class DriversService {
  readonly #deps: DriversDependencies;
  readonly #presence: CoalescingWriter<number, repository.PresenceEntry>;
  #indexFailedAt = -Infinity;
  readonly #positionLimit: PerSecondLimit;
  /** Drivers whose connection was lost, until they report again or go offline. */
  readonly #lost = new Map<number, NodeJS.Timeout>();

  constructor(deps: DriversDependencies) {
    this.#deps = deps;
    this.#positionLimit = new PerSecondLimit(deps.positionsPerSecond);
    this.#presence = new CoalescingWriter(
      (entries) => deps.transactions.run((tx) => repository.upsertPresence(tx.db, entries.map(([, entry]) => entry))),
      PRESENCE_FLUSH_INTERVAL_MS,
      deps.log,
      { retryable: isDatabaseUnavailable },
    );
  }

  /** Shows the drivers who were online moments before this instance started (a restart, a deploy). */
  async restore(): Promise<void> {
    const positions = await repository.onlineSince(this.#deps.db, this.#deps.clock.now() - POSITION_TTL_MS);
    try {
      // A chunk at a time rather than one by one: over Redis the writes share round trips.
      for (let start = 0; start < positions.length; start += RESTORE_CHUNK) {
        await Promise.all(positions.slice(start, start + RESTORE_CHUNK).map((position) => this.#deps.index.upsert(position)));
      }
      await this.#deps.events.emitted('drivers.restored', { positions });
    } catch (error) {
      // Best effort, never a failed start: a driver missed here reappears with their next report.
      this.#deps.log.warn({ err: error, drivers: positions.length }, 'drivers online before the start not all shown again');
    }
  }

  /**
   * Every position report, whichever way it came (REST, the ride's report, the realtime channel):
   * counted per driver first, so many connections or clients of one driver report no faster than one.
   */
  async reportPosition(driverId: number, point: Point): Promise<DriverPosition> {
    const now = this.#deps.clock.now();
    if (!this.#positionLimit.take(driverId, now)) {
      throw tooManyRequests(`At most ${this.#deps.positionsPerSecond} positions a second per driver`, 1);
    }
    this.#found(driverId);
    const position = { driverId, lat: point.lat, lon: point.lon, updatedAt: now };
    await this.#deps.index.upsert(position);
    this.#presence.set(driverId, { ...position, online: true });
    // Answered once those who follow positions (dispatch's available drivers) have it.
    await this.#deps.events.emitted('driver.positioned', position);
    return position;
  }

  /** The driver's fresh position, if any. */
  position(driverId: number): Promise<DriverPosition | undefined> {
    return this.#deps.index.get(driverId, this.#deps.clock.now());
  }

  /**
   * Where the driver was last seen: the fresh position, else the last one stored (or still waiting
   * to be), however old. What a ride in progress shows when its driver has gone quiet, and what it
   * shows while the live index is unreachable (a Redis outage): PostgreSQL's copy.
   */
  async lastKnown(driverId: number): Promise<DriverPosition | undefined> {
    const fresh = await this.#indexed(driverId);
    if (fresh !== UNREACHABLE && fresh) return fresh;
    return this.#stored(driverId, this.#deps.db);
  }

  /**
   * Where the driver is now: the fresh position, or, while the live index is unreachable, the stored
   * one if it is as fresh (read with `db`, a transaction's handle when asked inside one).
   */
  async current(driverId: number, db: Db = this.#deps.db): Promise<DriverPosition | undefined> {
    const fresh = await this.#indexed(driverId);
    if (fresh !== UNREACHABLE) return fresh;
    const stored = await this.#stored(driverId, db);
    return stored && stored.updatedAt > this.#deps.clock.now() - POSITION_TTL_MS ? stored : undefined;
  }

  /** The index's answer; UNREACHABLE when it fails, and for INDEX_RETRY_MS after, without asking (no wait for each timeout). */
  async #indexed(driverId: number): Promise<DriverPosition | undefined | typeof UNREACHABLE> {
    if (performance.now() - this.#indexFailedAt < INDEX_RETRY_MS) return UNREACHABLE;
    try {
      return await this.position(driverId);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'REDIS_UNAVAILABLE')) throw error;
      this.#indexFailedAt = performance.now();
      return UNREACHABLE;
    }
  }

  /** The last position written to driver_presence, or still waiting to be. */
  async #stored(driverId: number, db: Db): Promise<DriverPosition | undefined> {
    const pending = this.#presence.get(driverId);
    if (pending) return { driverId, lat: pending.lat, lon: pending.lon, updatedAt: pending.updatedAt };
    return repository.lastPosition(db, driverId);
  }

  /** Drivers who reported a position since `since` (written within a second of the report). */
  seenSince(since: number): Promise<number[]> {
    return repository.driversSeenSince(this.#deps.db, since);
  }

  /** Drivers online now: a position within the last two minutes, not gone offline. */
  onlineCount(): Promise<number> {
    return repository.countOnlineSince(this.#deps.db, this.#deps.clock.now() - POSITION_TTL_MS);
  }

  /**
   * The driver's app lost its realtime connection (the app closed, or the network went): offline
   * unless a report comes within the grace, on this instance or (compared by time) on another.
   */
  connectionLost(driverId: number): void {
    this.#found(driverId);
    const lostAt = this.#deps.clock.now();
    const timer = setTimeout(() => {
      this.#lost.delete(driverId);
      void this.position(driverId)
        .then((position) => (position && position.updatedAt > lostAt ? undefined : this.goOffline(driverId)))
        .catch((error: unknown) => this.#deps.log.warn({ err: error, driverId }, 'driver whose app went away not taken offline'));
    }, this.#deps.reconnectGraceMs ?? RECONNECT_GRACE_MS);
    timer.unref();
    this.#lost.set(driverId, timer);
  }

  #found(driverId: number): void {
    const timer = this.#lost.get(driverId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#lost.delete(driverId);
  }

  /** Off the map until the next report. */
  async goOffline(driverId: number): Promise<void> {
    this.#found(driverId);
    const last = await this.position(driverId);
    await this.#deps.index.remove(driverId);
    await this.#deps.events.emitted('driver.offline', { driverId });
    if (last) this.#presence.set(driverId, { ...last, updatedAt: this.#deps.clock.now(), online: false });
  }

  /** Every driver online now with their position (its cost follows the number online). */
  /** Every online driver's position, as columns: the supply sampler reads them all every 30 s. */
  online(): Promise<PositionColumns> {
    return this.#deps.index.freshColumns(this.#deps.clock.now());
  }

  nearby(center: Point, radiusKm: number, limit: number): Promise<NearbyDriver[]> {
    return this.#deps.index.nearby(center, radiusKm, limit, this.#deps.clock.now());
  }

  /** A driver position as the API shows it. */
  view(position: DriverPosition): DriverLocation {
    return { ...position, updatedAt: toIso(position.updatedAt), visibleUntil: toIso(position.updatedAt + POSITION_TTL_MS) };
  }

  close(): Promise<void> {
    for (const timer of this.#lost.values()) clearTimeout(timer);
    this.#lost.clear();
    return this.#presence.close();
  }
}
