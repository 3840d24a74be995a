import type { Clock } from '../../platform/clock.ts';
import { byDistance, type DriverLocationIndex, type DriverPosition, type NearbyDriver } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { VEHICLE_TYPES, vehiclesServing, type VehicleType } from '../drivers/vehicles.ts';
import { NearestDrivers } from './nearest-drivers.ts';

/**
 * Where the available drivers are: one location index per vehicle type, holding nobody else, so
 * reading them never walks past a busy driver or one whose vehicle could not take the ride.
 * Deciding who is available is Availability's job; this is the set it keeps.
 */
export class AvailableDrivers {
  readonly #indexes: Record<VehicleType, DriverLocationIndex>;
  readonly #clock: Clock;

  constructor(indexes: Record<VehicleType, DriverLocationIndex>, clock: Clock) {
    this.#indexes = indexes;
    this.#clock = clock;
  }

  /** A new position of a driver already known to be available with this vehicle. */
  move(vehicle: VehicleType, position: DriverPosition): Promise<void> {
    return this.#indexes[vehicle].upsert(position);
  }

  /** The driver is available with this vehicle at this position, and in no other vehicle's index. */
  async put(vehicle: VehicleType, position: DriverPosition): Promise<void> {
    await Promise.all(VEHICLE_TYPES.map((type) => (type === vehicle ? this.#indexes[type].upsert(position) : this.#indexes[type].remove(position.driverId))));
  }

  async remove(driverId: number): Promise<void> {
    await Promise.all(VEHICLE_TYPES.map((type) => this.#indexes[type].remove(driverId)));
  }

  /**
   * Every available driver now, read once (one read per vehicle type, in-process or from Redis):
   * a dispatch round asks it for thousands of rides' candidates without another read.
   */
  async snapshot(): Promise<AvailableSnapshot> {
    const now = this.#clock.now();
    const positions = await Promise.all(VEHICLE_TYPES.map((vehicle) => this.#indexes[vehicle].fresh(now)));
    return new AvailableSnapshot(Object.fromEntries(VEHICLE_TYPES.map((vehicle, i) => [vehicle, positions[i]])) as Record<VehicleType, DriverPosition[]>);
  }

  /** The nearest available driver whose vehicle serves the ride type, within the radius. */
  async nearestServing(pickup: Point, rideType: RideType, radiusKm: number): Promise<NearbyDriver | undefined> {
    const now = this.#clock.now();
    const nearest = await Promise.all(vehiclesServing(rideType).map((vehicle) => this.#indexes[vehicle].nearby(pickup, radiusKm, 1, now)));
    return nearest.flat().sort(byDistance)[0];
  }

  /** How many drivers are available now, by vehicle (the operators' overview): supplyByZone without placing each one in a zone. */
  async countByVehicle(): Promise<Record<VehicleType, number>> {
    const now = this.#clock.now();
    const positions = await Promise.all(VEHICLE_TYPES.map((vehicle) => this.#indexes[vehicle].fresh(now)));
    return Object.fromEntries(VEHICLE_TYPES.map((vehicle, i) => [vehicle, positions[i].length])) as Record<VehicleType, number>;
  }

  /** Available drivers per zone now (its cost follows the number of available drivers). */
  async supplyByZone(): Promise<Map<string, number>> {
    const now = this.#clock.now();
    return countByZone(await Promise.all(VEHICLE_TYPES.map((vehicle) => this.#indexes[vehicle].fresh(now))), new Set());
  }
}

/** The available drivers as one dispatch round sees them. */
export class AvailableSnapshot {
  readonly #positions: Record<VehicleType, readonly DriverPosition[]>;
  readonly #trees = new Map<VehicleType, NearestDrivers>();

  constructor(positions: Record<VehicleType, readonly DriverPosition[]>) {
    this.#positions = positions;
  }

  /** The `k` nearest drivers whose vehicle serves the ride type, leaving out `excluded`. */
  candidates(pickup: Point, rideType: RideType, radiusKm: number, k: number, excluded?: ReadonlySet<number>): NearbyDriver[] {
    const vehicles = vehiclesServing(rideType);
    if (vehicles.length === 1) return this.#tree(vehicles[0]).nearest(pickup, radiusKm, k, excluded);
    return vehicles
      .flatMap((vehicle) => this.#tree(vehicle).nearest(pickup, radiusKm, k, excluded))
      .sort(byDistance)
      .slice(0, k);
  }

  /** Drivers per zone, leaving out `except` (those the round has just offered rides to). */
  supplyByZone(except: ReadonlySet<number> = new Set()): Map<string, number> {
    return countByZone(Object.values(this.#positions), except);
  }

  /** Built on first use: a round with no sedan rides never sorts the sedans. */
  #tree(vehicle: VehicleType): NearestDrivers {
    let tree = this.#trees.get(vehicle);
    if (!tree) this.#trees.set(vehicle, (tree = new NearestDrivers(this.#positions[vehicle])));
    return tree;
  }
}

function countByZone(groups: ReadonlyArray<readonly DriverPosition[]>, except: ReadonlySet<number>): Map<string, number> {
  const supply = new Map<string, number>();
  for (const positions of groups) {
    for (const position of positions) {
      if (except.has(position.driverId)) continue;
      const zone = zoneOf(position);
      supply.set(zone, (supply.get(zone) ?? 0) + 1);
    }
  }
  return supply;
}
