import type { Db } from '../../db/database.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { notFound } from '../../platform/errors.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import { livePosition, viewerOf, type RideParties } from './ride-access.ts';
import type { RidePeople } from './ride-people.ts';
import type { RideTracking } from './ride-tracking.service.ts';
import { codesFor, toPublicRide, toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { PublicRide, Ride, RideStatusResponse } from './rides.schemas.ts';

/** Reading rides, each in the caller's view: open requests, history, the caller's open rides, one ride's status. */
export class RideQueries {
  readonly #db: Db;
  readonly #users: Pick<AuthService, 'findUsers'>;
  readonly #people: RidePeople;
  readonly #drivers: Pick<DriversService, 'lastKnown'>;
  readonly #tracking: Pick<RideTracking, 'publicStatus' | 'etaOf'>;

  constructor(deps: { db: Db; users: Pick<AuthService, 'findUsers'>; people: RidePeople; drivers: Pick<DriversService, 'lastKnown'>; tracking: Pick<RideTracking, 'publicStatus' | 'etaOf'> }) {
    this.#db = deps.db;
    this.#users = deps.users;
    this.#people = deps.people;
    this.#drivers = deps.drivers;
    this.#tracking = deps.tracking;
  }

  /** Open requests, newest first, without codes or e-mails. */
  async requested(page: Page): Promise<{ rides: PublicRide[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.listRequested(this.#db, page), page.limit);
    const riders = await this.#users.findUsers(items.map((row) => row.rider_id));
    return { rides: items.map((row) => toPublicRide(row, riders.get(row.rider_id)?.name)), nextCursor };
  }

  /** Rides the caller booked or drove, newest first. */
  async history(user: AuthUser, page: Page): Promise<{ rides: Ride[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.listForUser(this.#db, user.id, page), page.limit);
    return { rides: await this.#views(user, items), nextCursor };
  }

  /** The caller's rides in REQUESTED, ACCEPTED or PICKED: what an app that restarts must find again. */
  async active(user: AuthUser): Promise<Ride[]> {
    return this.#views(user, await repository.listOpenForUser(this.#db, user.id));
  }

  /** GET /rides/status/{id}: the whole ride for its rider and driver (and admins), the public subset for anyone else. */
  async status(user: AuthUser | null, id: number): Promise<RideStatusResponse> {
    if (!user) return this.#tracking.publicStatus(id);
    const ride = await this.#row(id);
    const viewer = viewerOf(user, ride);
    if (viewer === 'public') return this.#tracking.publicStatus(id);
    return (await this.#views(user, [ride]))[0];
  }

  /** The minutes left to where the ride is headed from its driver's position (ride-etas.ts); null when the ride is headed nowhere or its driver's position is unknown. */
  eta(ride: Pick<Ride, 'id' | 'driverLat' | 'driverLon'>): Promise<number | null> {
    if (ride.driverLat === null || ride.driverLon === null) return Promise.resolve(null);
    return this.#tracking.etaOf(ride.id, { lat: ride.driverLat, lon: ride.driverLon });
  }

  /** Operators' search over every ride, newest first, each in the admin's view (no codes). */
  async search(filters: repository.RideFilters, page: Page): Promise<{ rides: Ride[]; nextCursor: string | null }> {
    const { items, nextCursor } = takePage(await repository.search(this.#db, filters, page), page.limit);
    return { rides: await this.#views(undefined, items), nextCursor };
  }

  /** One ride as operators see it (no codes), whoever booked it. */
  async find(id: number): Promise<Ride> {
    return (await this.#views(undefined, [await this.#row(id)]))[0];
  }

  /** Who takes part in a ride: what other modules check their own access rules against. */
  async parties(id: number): Promise<RideParties> {
    const { rider_id, driver_id } = await this.#row(id);
    return { rider_id, driver_id };
  }

  async #row(id: number): Promise<repository.RideRow> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    return ride;
  }

  /** Each ride in the user's view of it; without a user, in the operators' view (no codes). */
  async #views(user: AuthUser | undefined, rows: repository.RideRow[]): Promise<Ride[]> {
    const people = await this.#people.of(rows);
    return Promise.all(
      rows.map(async (row) => {
        const position = row.driver_id !== null && livePosition(row.status) ? await this.#drivers.lastKnown(row.driver_id) : undefined;
        return toRide(row, { riderName: people.riderName(row), driver: people.driver(row), position, codes: user ? codesFor(viewerOf(user, row)) : 'none' });
      }),
    );
  }
}
