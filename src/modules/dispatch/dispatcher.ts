import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { ServiceBus } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import type { Lease } from '../../platform/lease.ts';
import type { DispatchMode } from '../../platform/vocabulary.ts';
import type { ZoneTable } from '../insights/zone-table.service.ts';
import { zoneSurge, type ZoneCounts } from '../insights/zone-surge.ts';
import type { OpenRequest, RideDispatch } from '../rides/ride-dispatch.service.ts';
import { assign, type Edge } from './assignment.ts';
import type { Availability } from './availability.ts';
import type { AvailableSnapshot } from './available-drivers.ts';
import type { OfferEvents } from './offer-events.ts';
import * as repository from './offers.repository.ts';
import type { Candidate, PickupWays } from './pickup-ways.ts';

export interface DispatchSettings {
  mode: DispatchMode;
  /** DISPATCH_BATCH_MS: the length of a round. */
  batchMs: number;
  /** DISPATCH_OFFER_TTL_SECONDS, in ms: how long a driver has to answer. */
  offerTtlMs: number;
  /** DISPATCH_MAX_SECONDS, in ms: when the rider is told no driver was found. */
  maxMs: number;
  /** How many open rides a round reads at most, longest waiting first (ROUND_RIDES unless a test sets it). */
  roundRides?: number;
}

/** The search widens with the ride's wait: this radius first, the next after each offer period. */
export const SEARCH_RADII_KM = [2, 5, 8];
/**
 * Open rides a round reads at most, longest waiting first: a backlog (drivers gone, a flood of
 * bookings) costs a round no more than this, and the rides waiting longest are served first.
 */
export const ROUND_RIDES = 5_000;
/** Drivers each ride considers in a round: enough choice, and the assignment stays sparse. */
export const CANDIDATES_PER_RIDE = 8;

/** Rounds run and offers made by one instance since it started (Prometheus adds up the instances). */
export interface DispatchCounts {
  rounds: number;
  offers: number;
  /** Time spent in those rounds: with `rounds`, the mean round time an operator pages on. */
  roundSeconds: number;
}

export interface DispatcherDependencies {
  transactions: Transactions;
  rides: Pick<RideDispatch, 'openRequests' | 'recordOffer' | 'noDriverFound'>;
  availability: Availability;
  events: OfferEvents;
  zones: Pick<ZoneTable, 'publish'>;
  /** Each candidate's way to the pickup by road, in learned minutes: the costs a round weighs and the offer shows. */
  ways: Pick<PickupWays, 'of'>;
  db: Db;
  lease: Lease;
  bus: ServiceBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * How long the dispatch lease lasts unrenewed. Its holder renews it at every round, so it outlives
 * two rounds; at the default round length a dead holder is replaced within five seconds.
 */
export const dispatchLeaseMs = (batchMs: number): number => Math.max(5_000, 2 * batchMs + 1_000);

/** The search radius for a ride that has waited this long. */
export function searchRadiusKm(waitedMs: number, offerTtlMs: number): number {
  return SEARCH_RADII_KM[Math.min(SEARCH_RADII_KM.length - 1, Math.floor(waitedMs / offerTtlMs))];
}

/**
 * The marketplace's one leader: every round, the instance holding the dispatch lease expires
 * unanswered offers, tells riders nobody was found, offers open rides to available drivers
 * (`nearest`: each ride, oldest first, to its nearest driver by time; `batched`: all at once, least
 * total time to the pickups, by ROUTING's roads and learned minutes) and publishes the surge of each zone. Offers live in the database under unique
 * indexes, so a new leader carries on where the old one stopped, never doubling an offer.
 */
export class Dispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #settings: DispatchSettings;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #leading = false;
  readonly #counts: DispatchCounts = { rounds: 0, offers: 0, roundSeconds: 0 };

  constructor(deps: DispatcherDependencies, settings: DispatchSettings) {
    this.#deps = deps;
    this.#settings = settings;
  }

  /** What this instance did while it led: the metrics endpoint reports it. */
  counts(): Readonly<DispatchCounts> {
    return this.#counts;
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
    this.#counts.rounds++;
    const started = performance.now();
    try {
      await this.#lead();
    } finally {
      this.#counts.roundSeconds += (performance.now() - started) / 1000;
    }
  }

  async #lead(): Promise<void> {
    const now = this.#deps.clock.now();
    await this.#expire(now);
    const open = await this.#deps.rides.openRequests(this.#settings.roundRides ?? ROUND_RIDES);
    const searching: OpenRequest[] = [];
    for (const ride of open) {
      if (ride.searchingSince > now - this.#settings.maxMs) searching.push(ride);
      else await this.#deps.rides.noDriverFound(ride.id, now);
    }
    // One read of the available drivers serves the whole round: every ride's search and the zones' supply.
    const available = await this.#deps.availability.snapshot();
    const offered = this.#settings.mode === 'broadcast' ? [] : await this.#offer(searching, available, this.#settings.mode, now);
    await this.#publishZones(open, available.supplyByZone(new Set(offered)));
  }

  async #expire(now: number): Promise<void> {
    await this.#deps.transactions.run(async (tx) => {
      const expired = await repository.expireDue(tx.db, now);
      this.#deps.events.ended(tx, expired, 'offer.expired');
    });
  }

  /** Offers the open rides without a pending offer; answers the drivers who got one. */
  async #offer(searching: OpenRequest[], available: AvailableSnapshot, mode: Exclude<DispatchMode, 'broadcast'>, now: number): Promise<number[]> {
    const pending = await repository.ridesWithPendingOffer(this.#deps.db);
    const rides = searching.filter((ride) => !pending.has(ride.id));
    if (rides.length === 0) return [];
    const refused = await repository.refusals(
      this.#deps.db,
      rides.map((ride) => ride.id),
    );
    const pairs = await pairRides(available, rides, mode, (ride) => searchRadiusKm(now - ride.searchingSince, this.#settings.offerTtlMs), this.#deps.ways, refused);
    // All at once: SQLite commits them together (group commit), PostgreSQL in parallel. Each pair
    // has its own ride and its own driver, so they never wait for one another.
    const made = await Promise.all(pairs.map(({ ride, driver }) => this.#make(ride, driver, now)));
    return pairs.filter((_, i) => made[i]).map(({ driver }) => driver.driverId);
  }

  async #make(ride: OpenRequest, driver: Candidate, now: number): Promise<boolean> {
    const made = await this.#deps.transactions.run(async (tx) => {
      const { way } = driver;
      const offer = await repository.insertOffer(tx.db, {
        ride_id: ride.id,
        driver_id: driver.driverId,
        pickup_distance_km: way.km,
        pickup_eta_minutes: way.minutes,
        created_at: now,
        expires_at: now + this.#settings.offerTtlMs,
      });
      if (!offer) return false;
      await this.#deps.rides.recordOffer(tx, ride.id, now);
      this.#deps.events.created(tx, offer);
      return true;
    });
    if (made) this.#counts.offers++;
    // The driver was not free after all (a ride or an offer the index had not heard of yet).
    if (!made) await this.#deps.availability.recheck(driver.driverId);
    return made;
  }

  /** Demand (distinct riders waiting) and supply (available drivers) per zone, and the surge they make. */
  async #publishZones(open: OpenRequest[], supplyByZone: ReadonlyMap<string, number>): Promise<void> {
    const riders = new Map<string, Set<number>>();
    for (const ride of open) {
      const zone = ride.pickupZone ?? zoneOf(ride.pickup);
      riders.set(zone, (riders.get(zone) ?? new Set()).add(ride.riderId));
    }
    const counts = new Map<string, ZoneCounts>();
    for (const [zone, waiting] of riders) counts.set(zone, { demand: waiting.size, supply: 0 });
    for (const [zone, supply] of supplyByZone) counts.set(zone, { demand: counts.get(zone)?.demand ?? 0, supply });
    await this.#deps.zones.publish(zoneSurge(counts));
  }
}

/** A ride and the driver a round offers it to. */
export interface Pairing<R extends OpenRequest = OpenRequest> {
  ride: R;
  driver: Candidate;
}

/**
 * What a round decides: each open ride's nearest candidates (within the radius its wait allows,
 * leaving out drivers who refused it), their ways to the pickup by road, then the pairs the mode
 * makes of them. The benchmark and the city-day replay time and replay exactly this.
 */
export async function pairRides<R extends OpenRequest>(
  drivers: Pick<AvailableSnapshot, 'candidates'>,
  rides: readonly R[],
  mode: Exclude<DispatchMode, 'broadcast'>,
  radiusKm: (ride: R) => number,
  ways: Pick<PickupWays, 'of'>,
  refused: ReadonlyMap<number, ReadonlySet<number>> = new Map(),
): Promise<Array<Pairing<R>>> {
  const nearby = rides.map((ride) => drivers.candidates(ride.pickup, ride.rideType, radiusKm(ride), CANDIDATES_PER_RIDE, refused.get(ride.id)));
  const candidates = await ways.of(
    rides.map((ride) => ride.pickup),
    nearby,
  );
  const pairs = mode === 'batched' ? batched(candidates) : nearest(candidates);
  return pairs.map(({ ride, driver }) => ({ ride: rides[ride], driver }));
}

/** Pairs as the assignment over every ride's candidates finds them: the most rides matched, then the least total time to the pickups. */
export function batched(candidates: readonly Candidate[][]): Array<{ ride: number; driver: Candidate }> {
  const edges: Edge[] = [];
  candidates.forEach((list, ride) => {
    // Seconds: integer costs keep the assignment exact.
    for (const driver of list) edges.push({ ride, driver: driver.driverId, cost: driver.seconds });
  });
  return assign(candidates.length, edges).map(({ ride, driver }) => ({ ride, driver: candidates[ride].find((c) => c.driverId === driver)! }));
}

/** Each ride in turn (oldest first) takes its nearest driver by time (lists come sorted so) that no earlier ride took. */
export function nearest(candidates: readonly Candidate[][]): Array<{ ride: number; driver: Candidate }> {
  const taken = new Set<number>();
  const pairs: Array<{ ride: number; driver: Candidate }> = [];
  candidates.forEach((list, ride) => {
    const driver = list.find((candidate) => !taken.has(candidate.driverId));
    if (!driver) return;
    taken.add(driver.driverId);
    pairs.push({ ride, driver });
  });
  return pairs;
}
