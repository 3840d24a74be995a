import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';
import * as repository from './incidents.repository.ts';

/** A point at most this often per incident: a driver reports up to 5 a second, a track needs far fewer. */
export const TRACK_EVERY_MS = 2000;
/** How often each instance re-reads which drivers are followed: an SOS raised on another instance is followed here within this. */
const REFRESH_MS = 2000;

/**
 * The track of each unresolved incident: the positions of its ride's driver from the SOS on, from
 * whichever instance they reach (each instance records the positions it receives). Which drivers
 * are followed is re-read from the database every REFRESH_MS, and known at once on the instance
 * that took the SOS.
 */
export class IncidentTrack {
  readonly #deps: { db: Db; transactions: Transactions; log: FastifyBaseLogger };
  /** driver id → the unresolved incidents following them. */
  #followed = new Map<number, number[]>();
  readonly #lastAt = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: { db: Db; transactions: Transactions; log: FastifyBaseLogger }) {
    this.#deps = deps;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh().catch((error: unknown) => this.#deps.log.warn({ err: error }, 'incident track: followed drivers not re-read')), REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async refresh(): Promise<void> {
    const followed = new Map<number, number[]>();
    for (const { id, driver_id } of await repository.tracked(this.#deps.db)) followed.set(driver_id!, [...(followed.get(driver_id!) ?? []), id]);
    this.#followed = followed;
  }

  /** The SOS that opened `incidentId` was taken here: follow its driver from now on. */
  follow(incidentId: number, driverId: number): void {
    const incidents = this.#followed.get(driverId) ?? [];
    if (!incidents.includes(incidentId)) this.#followed.set(driverId, [...incidents, incidentId]);
  }

  /**
   * On driver.positioned: a followed driver's position joins their incidents' tracks. Everyone else
   * costs a map lookup and no promise (this runs for every position report).
   */
  onPosition(position: DriverPosition): Promise<void> | undefined {
    const incidents = this.#followed.get(position.driverId);
    if (!incidents) return undefined;
    const last = this.#lastAt.get(position.driverId);
    if (last !== undefined && position.updatedAt - last < TRACK_EVERY_MS && position.updatedAt >= last) return undefined;
    this.#lastAt.set(position.driverId, position.updatedAt);
    const points = incidents.map((incidentId) => ({ incident_id: incidentId, lat: position.lat, lon: position.lon, at: position.updatedAt }));
    return this.#deps.transactions.run((tx) => repository.insertTrackPoints(tx.db, points));
  }
}
