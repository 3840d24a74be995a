import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { RideQueries } from '../rides/ride-queries.service.ts';
import type { Ride } from '../rides/rides.schemas.ts';
import * as repository from './trip-shares.repository.ts';
import type { ShareLink, SharedTrip } from './safety.schemas.ts';
import { hashShareToken, linkOpen, LONGEST_MS, newShareToken, toSharedTrip } from './share-links.ts';

export interface TripSharesDependencies {
  db: Db;
  transactions: Transactions;
  rides: Pick<RideQueries, 'find' | 'eta'>;
  clock: Clock;
}

/** Trip-sharing links: made by a ride's rider (or for an SOS), shown to anyone holding one, revoked by the rider. */
export class TripShares {
  readonly #deps: TripSharesDependencies;

  constructor(deps: TripSharesDependencies) {
    this.#deps = deps;
  }

  /** POST /rides/{id}/share: the ride's rider, while it is ACCEPTED or PICKED. `origin` is where the service is reached (the page's address starts there). */
  async share(user: AuthUser, rideId: number, origin: string): Promise<ShareLink> {
    const ride = await this.#deps.rides.find(rideId);
    if (ride.riderId !== user.id) throw forbidden("Only the ride's rider can share it");
    if (ride.status !== 'ACCEPTED' && ride.status !== 'PICKED') {
      throw conflict(`Ride ${ride.id} is ${ride.status}; a ride is shared while it is ACCEPTED or PICKED`, 'RIDE_NOT_ACTIVE');
    }
    return this.linkFor(ride, user.id, origin);
  }

  /**
   * A new link to the ride, made by `createdBy`: the rider, or the reporter of an SOS (which may come
   * up to 30 minutes after the end: the link then shows where the ride ended, until it expires).
   */
  async linkFor(ride: Pick<Ride, 'id'>, createdBy: number, origin: string): Promise<ShareLink> {
    const { token, hash } = newShareToken();
    const now = this.#deps.clock.now();
    const expiresAt = now + LONGEST_MS;
    await this.#deps.transactions.run((tx) => repository.insertShare(tx.db, { ride_id: ride.id, token_hash: hash, created_by: createdBy, created_at: now, expires_at: expiresAt }));
    return { url: `${origin}/share/${token}`, expiresAt: toIso(expiresAt) };
  }

  /** DELETE /rides/{id}/share: every link of the ride stops working at once. */
  async revoke(user: AuthUser, rideId: number): Promise<{ message: string }> {
    const ride = await this.#deps.rides.find(rideId);
    if (ride.riderId !== user.id) throw forbidden("Only the ride's rider can stop sharing it");
    const ended = await this.#deps.transactions.run((tx) => repository.revokeAll(tx.db, rideId, this.#deps.clock.now()));
    return { message: ended === 0 ? `Ride ${rideId} had no sharing link to end` : `Sharing of ride ${rideId} ended` };
  }

  /** GET /share/{token}.json: what the link shows, or 404 once it no longer works (or never did). */
  async view(token: string): Promise<SharedTrip> {
    const gone = () => notFound('This sharing link has ended or does not exist', 'SHARE_NOT_FOUND');
    const link = await repository.findByHash(this.#deps.db, hashShareToken(token));
    if (!link) throw gone();
    const ride = await this.#deps.rides.find(link.ride_id);
    if (!linkOpen({ expiresAt: Number(link.expires_at), revokedAt: link.revoked_at === null ? null : Number(link.revoked_at) }, ride, this.#deps.clock.now())) throw gone();
    // The same minutes the rider hears with each position (rides' ETAs: routed, in learned minutes, through the stops left).
    return toSharedTrip(ride, await this.#deps.rides.eta(ride));
  }
}
