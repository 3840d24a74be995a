import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { ServiceBus } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import type { NearbyDriver } from '../../platform/geo/driver-index.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import type { Lease } from '../../platform/lease.ts';
import type { DispatchMode } from '../../platform/vocabulary.ts';
import type { ZoneTable } from '../insights/zone-table.service.ts';
import { zoneSurge, type ZoneCounts } from '../insights/zone-surge.ts';
import { CITY_SPEED_KMH, ROAD_FACTOR } from '../pricing/pricing.model.ts';
import type { OpenRequest, RideDispatch } from '../rides/ride-dispatch.service.ts';
import { assign, type Edge } from './assignment.ts';
import type { Availability } from './availability.ts';
import type { OfferEvents } from './offer-events.ts';
import * as repository from './offers.repository.ts';


export interface DispatchSettings {
  mode: DispatchMode;
  /** DISPATCH_BATCH_MS: the length of a round. */
  batchMs: number;
  /** DISPATCH_OFFER_TTL_SECONDS, in ms: how long a driver has to answer. */
  offerTtlMs: number;
  /** DISPATCH_MAX_SECONDS, in ms: when the rider is told no driver was found. */
  maxMs: number;
}

/** The search widens with the ride's wait: this radius first, the next after each offer period. */
export const SEARCH_RADII_KM = [2, 5, 8];
/** Drivers each ride considers in a round: enough choice, and the assignment stays sparse. */
export const CANDIDATES_PER_RIDE = 8;

export interface DispatcherDependencies {
  transactions: Transactions;
  rides: Pick<RideDispatch, 'openRequests' | 'recordOffer' | 'noDriverFound'>;
  availability: Availability;
  events: OfferEvents;
  zones: Pick<ZoneTable, 'publish'>;
  db: Db;
  lease: Lease;
  bus: ServiceBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Minutes for a driver to reach the pickup, from the straight-line distance (road factor, city speed). */
export const pickupEtaMinutes = (distanceKm: number): number => Math.max(1, Math.ceil(((distanceKm * ROAD_FACTOR) / CITY_SPEED_KMH) * 60));

/** The search radius for a ride that has waited this long. */
export function searchRadiusKm(waitedMs: number, offerTtlMs: number): number {
  return SEARCH_RADII_KM[Math.min(SEARCH_RADII_KM.length - 1, Math.floor(waitedMs / offerTtlMs))];
}

/**
 * The marketplace's one leader: every round, the instance holding the dispatch lease expires
 * unanswered offers, tells riders nobody was found, offers open rides to available drivers
 * (`nearest`: each ride, oldest first, to its nearest driver; `batched`: all at once, least total
 * pickup distance) and publishes the surge of each zone. Offers live in the database under unique
 * indexes, so a new leader carries on where the old one stopped, never doubling an offer.
 */
export class Dispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #settings: DispatchSettings;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #leading = false;

  constructor(deps: DispatcherDependencies, settings: DispatchSettings) {
    this.#deps = deps;
    this.#settings = settings;
  }

  async start(): Promise<void> {
    // In nearest mode a booking is offered at once, not at the end of a round.
    if (this.#settings.mode === 'nearest') await this.#deps.bus.subscribe('dispatch.nudge', () => void this.round());
    this.#timer = setInterval(() => void this.round(), this.#settings.batchMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
    await this.#deps.lease.release();
  }

  /** One round, if this instance leads; a call during a round runs one more right after it. */
  round(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#round()
      .catch((error: unknown) => this.#deps.log.error({ err: error }, 'dispatch round failed'))
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          void this.round();
        }
      });
    return this.#running;
  }

  async #round(): Promise<void> {
    const leading = await this.#deps.lease.hold();
    if (leading !== this.#leading) {
      this.#leading = leading;
      this.#deps.log.info({ leading }, leading ? 'this instance now leads dispatch' : 'this instance no longer leads dispatch');
    }
    if (!leading) return;
    const now = this.#deps.clock.now();
    await this.#expire(now);
    const open = await this.#deps.rides.openRequests();
    const searching: OpenRequest[] = [];
    for (const ride of open) {
      if (ride.createdAt > now - this.#settings.maxMs) searching.push(ride);
      else await this.#deps.rides.noDriverFound(ride.id, now);
    }
    if (this.#settings.mode !== 'broadcast') await this.#offer(searching, now);
    await this.#publishZones(open);
  }

  async #expire(now: number): Promise<void> {
    await this.#deps.transactions.run(async (tx) => {
      const expired = await repository.expireDue(tx.db, now);
      this.#deps.events.ended(tx, expired, 'offer.expired');
    });
  }

  async #offer(searching: OpenRequest[], now: number): Promise<void> {
    const pending = await repository.ridesWithPendingOffer(this.#deps.db);
    const rides = searching.filter((ride) => !pending.has(ride.id));
    if (rides.length === 0) return;
    const refused = await repository.refusals(
      this.#deps.db,
      rides.map((ride) => ride.id),
    );
    const candidates = await Promise.all(
      rides.map((ride) =>
        this.#deps.availability.candidates(ride.pickup, ride.rideType, searchRadiusKm(now - ride.createdAt, this.#settings.offerTtlMs), CANDIDATES_PER_RIDE, refused.get(ride.id)),
      ),
    );
    const pairs = this.#settings.mode === 'batched' ? batched(candidates) : nearest(candidates);
    for (const { ride, driver } of pairs) await this.#make(rides[ride], driver, now);
  }

  async #make(ride: OpenRequest, driver: NearbyDriver, now: number): Promise<void> {
    const made = await this.#deps.transactions.run(async (tx) => {
      const offer = await repository.insertOffer(tx.db, {
        ride_id: ride.id,
        driver_id: driver.driverId,
        pickup_distance_km: driver.distanceKm,
        pickup_eta_minutes: pickupEtaMinutes(driver.distanceKm),
        created_at: now,
        expires_at: now + this.#settings.offerTtlMs,
      });
      if (!offer) return false;
      await this.#deps.rides.recordOffer(tx, ride.id, now);
      this.#deps.events.created(tx, offer);
      return true;
    });
    // The driver was not free after all (a ride or an offer the index had not heard of yet).
    if (!made) await this.#deps.availability.recheck(driver.driverId);
  }

  async #publishZones(open: OpenRequest[]): Promise<void> {
    const riders = new Map<string, Set<number>>();
    for (const ride of open) {
      const zone = ride.pickupZone ?? zoneOf(ride.pickup);
      riders.set(zone, (riders.get(zone) ?? new Set()).add(ride.riderId));
    }
    const counts = new Map<string, ZoneCounts>();
    for (const [zone, waiting] of riders) counts.set(zone, { demand: waiting.size, supply: 0 });
    for (const [zone, supply] of await this.#deps.availability.supplyByZone()) counts.set(zone, { demand: counts.get(zone)?.demand ?? 0, supply });
    await this.#deps.zones.publish(zoneSurge(counts));
  }
}

/** Pairs as the assignment over every ride's candidates finds them: the least total pickup distance. */
export function batched(candidates: readonly NearbyDriver[][]): Array<{ ride: number; driver: NearbyDriver }> {
  const edges: Edge[] = [];
  candidates.forEach((list, ride) => {
    // Metres: integer costs keep the assignment exact.
    for (const driver of list) edges.push({ ride, driver: driver.driverId, cost: Math.round(driver.distanceKm * 1000) });
  });
  return assign(candidates.length, edges).map(({ ride, driver }) => ({ ride, driver: candidates[ride].find((c) => c.driverId === driver)! }));
}

/** Each ride in turn (oldest first) takes its nearest driver that no earlier ride took. */
export function nearest(candidates: readonly NearbyDriver[][]): Array<{ ride: number; driver: NearbyDriver }> {
  const taken = new Set<number>();
  const pairs: Array<{ ride: number; driver: NearbyDriver }> = [];
  candidates.forEach((list, ride) => {
    const driver = list.find((candidate) => !taken.has(candidate.driverId));
    if (!driver) return;
    taken.add(driver.driverId);
    pairs.push({ ride, driver });
  });
  return pairs;
}
