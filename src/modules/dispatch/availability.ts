import type { ServiceBus } from '../../events.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DriverLocationIndex, DriverPosition } from '../../platform/geo/driver-index.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import { AvailableDrivers } from './available-drivers.ts';

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
const RESTORE_CHUNK = 1_000;
/** Drivers whose state one batched lookup reads. */
const LOOKUP_CHUNK = 500;

export interface AvailabilityDependencies {
  /** One location index per vehicle type, holding only available drivers. */
  indexes: Record<VehicleType, DriverLocationIndex>;
  /** Reads drivers' states from the database (a few queries, however many drivers). */
  lookup: (driverIds: readonly number[]) => Promise<Map<number, DriverState>>;
  position: (driverId: number) => Promise<DriverPosition | undefined>;
  bus: ServiceBus;
  clock: Clock;
}

/**
 * Available drivers: online, with a vehicle (approved when required), on no ride and holding no
 * offer. Positions of available drivers go to their vehicle's index as they are reported; a change
 * of state (an offer, a ride, a profile) moves the driver in or out at once. The index is a fast
 * way to candidates; the offer itself is still checked against the database when it is made.
 */
export class Availability extends AvailableDrivers {
  readonly #deps: AvailabilityDependencies;
  readonly #states = new BoundedMap<number, { state: DriverState; until: number }>(STATES_MAX);
  readonly #waiting = new Map<number, PromiseWithResolvers<DriverState>>();
  /**
   * When each driver's state was last dropped, as a count of drops. A state read (or a position
   * report) that began before a drop lost a race with it: an offer, a ride or going offline came
   * while the database was being asked, so what the read found is not cached and does not put the
   * driver back among the available.
   */
  readonly #dropped = new BoundedMap<number, number>(STATES_MAX);
  #drops = 0;

  constructor(deps: AvailabilityDependencies) {
    super(deps.indexes, deps.clock);
    this.#deps = deps;
  }

  /** Forgets what it knew of drivers whose state changed on any instance. */
  async listen(): Promise<void> {
    await this.#deps.bus.subscribe('ride.changed', ({ driverId }) => driverId !== null && this.#drop(driverId));
    await this.#deps.bus.subscribe('driver.changed', ({ driverId }) => this.#drop(driverId));
  }

  /** After each position report: an available driver's position also goes to their vehicle's index. */
  async onPosition(position: DriverPosition): Promise<void> {
    const asked = this.#drops;
    const state = await this.#state(position.driverId);
    if (!this.#droppedSince(position.driverId, asked)) {
      if (isFree(state)) await this.move(state.vehicle, position);
      return;
    }
    // The state changed while it was read (an offer, a ride, a profile, going offline, or another
    // instance's word of one): decide on what is true now. A driver who went offline has no position.
    if (await this.#deps.position(position.driverId)) await this.recheck(position.driverId);
    else await this.remove(position.driverId);
  }

  /** Reads the driver's state again and puts them in, or takes them out of, the available indexes. */
  async recheck(driverId: number): Promise<void> {
    this.#drop(driverId);
    const state = await this.#state(driverId);
    const position = isFree(state) ? await this.#deps.position(driverId) : undefined;
    if (position && state.vehicle) await this.put(state.vehicle, position);
    else await this.remove(driverId);
  }

  /** The driver is offered a ride or took one: out of every index until a recheck. */
  async withdraw(driverId: number): Promise<void> {
    this.#drop(driverId);
    await this.remove(driverId);
  }

  /**
   * Drivers shown again after this instance started (their positions came back from the database):
   * the available ones go back into their vehicle's index, read a thousand at a time.
   */
  async restore(positions: readonly DriverPosition[]): Promise<void> {
    for (let start = 0; start < positions.length; start += RESTORE_CHUNK) {
      const chunk = positions.slice(start, start + RESTORE_CHUNK);
      const states = await this.#deps.lookup(chunk.map((position) => position.driverId));
      await Promise.all(
        chunk.map((position) => {
          const state = states.get(position.driverId)!;
          return isFree(state) ? this.put(state.vehicle, position) : this.remove(position.driverId);
        }),
      );
    }
  }

  /** Tells every instance the driver's state changed (their cached state is dropped). */
  changed(driverId: number): Promise<void> {
    this.#drop(driverId);
    return this.#deps.bus.publish('driver.changed', { driverId });
  }

  async #state(driverId: number): Promise<DriverState> {
    const now = this.#deps.clock.now();
    const known = this.#states.get(driverId);
    if (known && known.until > now) return known.state;
    const asked = this.#drops;
    const state = await this.#lookupSoon(driverId);
    if (!this.#droppedSince(driverId, asked)) this.#states.set(driverId, { state, until: now + STATE_TTL_MS });
    return state;
  }

  #drop(driverId: number): void {
    this.#states.delete(driverId);
    this.#dropped.set(driverId, ++this.#drops);
  }

  #droppedSince(driverId: number, drops: number): boolean {
    return (this.#dropped.get(driverId) ?? 0) > drops;
  }

  /**
   * Drivers whose state is asked for in the same turn of the event loop are read together: a
   * thousand drivers coming online in one second made a thousand lookups of three queries each
   * and exhausted the database pool; now they take a few batched ones.
   */
  #lookupSoon(driverId: number): Promise<DriverState> {
    if (this.#waiting.size === 0) setImmediate(() => void this.#lookupWaiting());
    let waiting = this.#waiting.get(driverId);
    if (!waiting) this.#waiting.set(driverId, (waiting = Promise.withResolvers<DriverState>()));
    return waiting.promise;
  }

  async #lookupWaiting(): Promise<void> {
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (let start = 0; start < waiting.length; start += LOOKUP_CHUNK) {
      const chunk = waiting.slice(start, start + LOOKUP_CHUNK);
      try {
        const states = await this.#deps.lookup(chunk.map(([driverId]) => driverId));
        for (const [driverId, { resolve }] of chunk) resolve(states.get(driverId)!);
      } catch (error) {
        for (const [, { reject }] of chunk) reject(error);
      }
    }
  }
}
