import { byDistance, type DriverPosition, type NearbyDriver } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { zoneOf } from '../../platform/geo/zones.ts';
import { RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';
import { AvailableSnapshot } from '../dispatch/available-drivers.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import type { SampledDriver } from './supply-samples.ts';

interface Driver {
  vehicle: VehicleType;
  position: DriverPosition;
  zone: string;
  online: boolean;
  /** While on a replayed trip: when it ends, and where. */
  busyUntil: number;
  dropAt: Point | null;
}

/**
 * The replay's drivers: where the supply samples put them, on the replay's own trips, and free again
 * at their drops. Dispatch rounds read them as an AvailableSnapshot does, but the nearest-driver trees
 * are built once a sample (every 30 s, not every round: building them was two thirds of a replay's
 * time) with the drivers freed since searched beside them, and free drivers per zone are counted as
 * they change.
 */
export class ReplayFleet {
  readonly #drivers = new Map<number, Driver>();
  /** Online drivers at their sampled positions (busy ones are skipped at search). */
  #sampled: AvailableSnapshot | undefined;
  /** Drivers freed at their drops since the last sample. */
  readonly #freed = new Set<number>();
  #freedSnapshot: AvailableSnapshot | undefined;
  readonly #freeByZone = new Map<string, number>();
  readonly #skipSampled = { has: (id: number) => this.#freed.has(id) || this.#busy(id) };

  get online(): number {
    let count = 0;
    for (const driver of this.#drivers.values()) if (driver.online) count++;
    return count;
  }

  get freeByZone(): ReadonlyMap<string, number> {
    return this.#freeByZone;
  }

  /**
   * The sample's drivers are online; the others are offline. A driver moves to where the sample saw
   * them unless on a replayed trip, or on a trip of the period's own: somewhere along its route, not
   * where a free driver waits (a driver the replay left free stays where it left them).
   */
  applySample(sampled: readonly SampledDriver[], vehicles: ReadonlyMap<number, VehicleType>, now: number): void {
    for (const driver of this.#drivers.values()) driver.online = false;
    for (const { driverId, lat, lon, busy } of sampled) {
      const vehicle = vehicles.get(driverId);
      if (!vehicle) continue;
      let driver = this.#drivers.get(driverId);
      if (!driver) this.#drivers.set(driverId, (driver = { vehicle, position: { driverId, lat, lon, updatedAt: now }, zone: zoneOf({ lat, lon }), online: true, busyUntil: 0, dropAt: null }));
      driver.online = true;
      if (driver.busyUntil === 0 && !busy) moveTo(driver, { lat, lon }, now);
    }
    this.#sampled = undefined;
    this.#freed.clear();
    this.#freedSnapshot = undefined;
    this.#freeByZone.clear();
    for (const driver of this.#drivers.values()) if (driver.online && driver.busyUntil === 0) this.#count(driver.zone, 1);
  }

  /** Trips that have ended by `now`: their drivers are free at the drop. */
  endTrips(now: number): void {
    for (const [driverId, driver] of this.#drivers) {
      if (driver.busyUntil === 0 || driver.busyUntil > now) continue;
      driver.busyUntil = 0;
      if (driver.dropAt) moveTo(driver, driver.dropAt, now);
      driver.dropAt = null;
      if (!driver.online) continue;
      this.#freed.add(driverId);
      this.#freedSnapshot = undefined;
      this.#count(driver.zone, 1);
    }
  }

  /** The driver drives to a pickup and on to the drop, busy until `until` (straight from an offer it was held for, or free). */
  take(driverId: number, until: number, drop: Point): void {
    const driver = this.#drivers.get(driverId)!;
    if (driver.busyUntil === 0) this.#count(driver.zone, -1);
    driver.busyUntil = until;
    driver.dropAt = drop;
  }

  /** The driver looks at an offer until `until`, where it is: offered nothing else meanwhile. */
  hold(driverId: number, until: number): void {
    const driver = this.#drivers.get(driverId)!;
    if (driver.busyUntil === 0) this.#count(driver.zone, -1);
    driver.busyUntil = until;
  }

  /** As AvailableSnapshot.candidates: the `k` nearest free drivers whose vehicle serves the ride type. */
  candidates(pickup: Point, rideType: RideType, radiusKm: number, k: number, excluded?: ReadonlySet<number>): NearbyDriver[] {
    this.#sampled ??= this.#snapshot((driver) => driver.online);
    this.#freedSnapshot ??= this.#snapshot((driver, id) => this.#freed.has(id) && driver.online && driver.busyUntil === 0);
    const skip = excluded ? { has: (id: number) => excluded.has(id) || this.#skipSampled.has(id) } : this.#skipSampled;
    const freed = this.#freed.size === 0 ? [] : this.#freedSnapshot.candidates(pickup, rideType, radiusKm, k, { has: (id: number) => excluded?.has(id) === true || this.#busy(id) } as ReadonlySet<number>);
    const sampled = this.#sampled.candidates(pickup, rideType, radiusKm, k, skip as ReadonlySet<number>);
    return freed.length === 0 ? sampled : [...sampled, ...freed].sort(byDistance).slice(0, k);
  }

  #busy(id: number): boolean {
    return (this.#drivers.get(id)?.busyUntil ?? 0) > 0;
  }

  #snapshot(include: (driver: Driver, id: number) => boolean): AvailableSnapshot {
    const positions = Object.fromEntries(RIDE_TYPES.map((type) => [type, [] as DriverPosition[]])) as Record<VehicleType, DriverPosition[]>;
    for (const [id, driver] of this.#drivers) if (include(driver, id)) positions[driver.vehicle].push(driver.position);
    return new AvailableSnapshot(positions);
  }

  #count(zone: string, change: number): void {
    this.#freeByZone.set(zone, (this.#freeByZone.get(zone) ?? 0) + change);
  }
}

function moveTo(driver: Driver, point: Point, now: number): void {
  if (driver.position.lat !== point.lat || driver.position.lon !== point.lon) driver.zone = zoneOf(point);
  driver.position = { driverId: driver.position.driverId, lat: point.lat, lon: point.lon, updatedAt: now };
}
