import type { FastifyBaseLogger } from 'fastify';
import type { ServiceBus } from '../../events.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Clock } from '../../platform/clock.ts';
import { byDistance, type DriverLocationIndex, type DriverPosition, type NearbyDriver } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { VEHICLE_TYPES, vehiclesServing, type VehicleType } from '../drivers/vehicles.ts';

/** What decides whether a driver is available (decisions.md "Dispatch"), apart from being online. */
export interface DriverState {
  /** Their vehicle, when they have a profile and (if required) an operator's approval. */
  vehicle: VehicleType | undefined;
  /** On an ACCEPTED or PICKED ride. */
  busy: boolean;
  /** Holding a pending offer. */
  offered: boolean;
}

const isFree = (state: DriverState): state is DriverState & { vehicle: VehicleType } => state.vehicle !== undefined && !state.busy && !state.offered;

/** How long a driver's state serves position reports without being read again (changes drop it at once). */
export const STATE_TTL_MS = 60_000;
const STATES_MAX = 200_000;

export interface AvailabilityDependencies {
  /** One location index per vehicle type, holding only available drivers: a search never walks past busy ones. */
  indexes: Record<VehicleType, DriverLocationIndex>;
  /** Reads a driver's state from the database. */
  lookup: (driverId: number) => Promise<DriverState>;
  position: (driverId: number) => Promise<DriverPosition | undefined>;
  bus: ServiceBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Available drivers: online, with a vehicle (approved when required), on no ride and holding no
 * offer. Positions of available drivers go to their vehicle's index as they are reported; a change
 * of state (an offer, a ride, a profile) moves the driver in or out at once. The index is a fast
 * way to candidates; the offer itself is still checked against the database when it is made.
 */
export class Availability {
  readonly #deps: AvailabilityDependencies;
  readonly #states = new BoundedMap<number, { state: DriverState; until: number }>(STATES_MAX);

  constructor(deps: AvailabilityDependencies) {
    this.#deps = deps;
  }

  /** Forgets what it knew of drivers whose state changed on any instance. */
  async listen(): Promise<void> {
    await this.#deps.bus.subscribe('ride.changed', ({ driverId }) => driverId !== null && this.#states.delete(driverId));
    await this.#deps.bus.subscribe('driver.changed', ({ driverId }) => this.#states.delete(driverId));
  }

  /** After each position report: an available driver's position also goes to their vehicle's index. */
  async onPosition(position: DriverPosition): Promise<void> {
    const state = await this.#state(position.driverId);
    if (isFree(state)) await this.#deps.indexes[state.vehicle].upsert(position);
  }

  /** Reads the driver's state again and puts them in, or takes them out of, the available indexes. */
  async recheck(driverId: number): Promise<void> {
    this.#states.delete(driverId);
    const state = await this.#state(driverId);
    const position = isFree(state) ? await this.#deps.position(driverId) : undefined;
    await Promise.all(
      VEHICLE_TYPES.map((vehicle) =>
        position && vehicle === state.vehicle ? this.#deps.indexes[vehicle].upsert(position) : this.#deps.indexes[vehicle].remove(driverId),
      ),
    );
  }

  /** The driver is offered a ride or took one: out of every index until a recheck. */
  async withdraw(driverId: number): Promise<void> {
    this.#states.delete(driverId);
    await Promise.all(VEHICLE_TYPES.map((vehicle) => this.#deps.indexes[vehicle].remove(driverId)));
  }

  /** Tells every instance the driver's state changed (their cached state is dropped). */
  changed(driverId: number): Promise<void> {
    this.#states.delete(driverId);
    return this.#deps.bus.publish('driver.changed', { driverId });
  }

  /** The `k` nearest available drivers whose vehicle serves the ride type, leaving out `excluded`. */
  async candidates(pickup: Point, rideType: RideType, radiusKm: number, k: number, excluded: ReadonlySet<number> = new Set()): Promise<NearbyDriver[]> {
    const now = this.#deps.clock.now();
    const found = await Promise.all(vehiclesServing(rideType).map((vehicle) => this.#deps.indexes[vehicle].nearby(pickup, radiusKm, k + excluded.size, now)));
    return found
      .flat()
      .filter((driver) => !excluded.has(driver.driverId))
      .sort(byDistance)
      .slice(0, k);
  }

  /** Available drivers per zone now. */
  async supplyByZone(): Promise<Map<string, number>> {
    const now = this.#deps.clock.now();
    const supply = new Map<string, number>();
    for (const vehicle of VEHICLE_TYPES) {
      for (const position of await this.#deps.indexes[vehicle].fresh(now)) {
        const zone = zoneOf(position);
        supply.set(zone, (supply.get(zone) ?? 0) + 1);
      }
    }
    return supply;
  }

  async #state(driverId: number): Promise<DriverState> {
    const now = this.#deps.clock.now();
    const known = this.#states.get(driverId);
    if (known && known.until > now) return known.state;
    const state = await this.#deps.lookup(driverId);
    this.#states.set(driverId, { state, until: now + STATE_TTL_MS });
    return state;
  }
}
