import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import type { Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { haversineKm } from '../../platform/geo/geo.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { RideDispatch } from '../rides/ride-dispatch.service.ts';
import type { RideLifecycle } from '../rides/ride-lifecycle.service.ts';
import type { RideRow } from '../rides/rides.repository.ts';
import type { Ride } from '../rides/rides.schemas.ts';
import { toOffer, type OfferEvents } from './offer-events.ts';
import * as repository from './offers.repository.ts';
import type { Offer, OfferStatus } from './offers.schemas.ts';

export interface OffersDependencies {
  db: Db;
  transactions: Transactions;
  lifecycle: Pick<RideLifecycle, 'accept'>;
  rides: Pick<RideDispatch, 'recordPickupDistance'>;
  drivers: Pick<DriversService, 'current'>;
  events: OfferEvents;
  clock: Clock;
}

/** One offer of a ride as operators follow it: who was asked, when, and how it ended. */
export interface OfferRecord {
  offerId: number;
  driverId: number;
  status: OfferStatus;
  offeredAt: number;
  answeredAt: number | null;
  pickupDistanceKm: number;
  declineReason: string | null;
}

/** A driver's offers: list, accept (the contract's accept, one conditional update), decline. */
export class OffersService {
  readonly #deps: OffersDependencies;

  constructor(deps: OffersDependencies) {
    this.#deps = deps;
  }

  async pending(driverId: number): Promise<Offer[]> {
    const now = this.#deps.clock.now();
    // An offer past its time is expired even before the dispatcher's next round says so.
    return (await repository.pendingForDriver(this.#deps.db, driverId)).filter((row) => row.expires_at > now).map(toOffer);
  }

  /** Every offer of the ride, oldest first (the operators' timeline). */
  async ofRide(rideId: number): Promise<OfferRecord[]> {
    return (await repository.forRide(this.#deps.db, rideId)).map((row) => ({
      offerId: row.id,
      driverId: row.driver_id,
      status: row.status as OfferStatus,
      offeredAt: row.created_at,
      answeredAt: row.answered_at,
      pickupDistanceKm: row.pickup_distance_km,
      declineReason: row.decline_reason,
    }));
  }

  async accept(user: Actor, offerId: number): Promise<Ride> {
    const offer = await this.#own(user, offerId);
    if (offer.status !== 'pending') throw conflict(`Offer ${offerId} is ${offer.status}`, 'OFFER_CLOSED');
    if (offer.expires_at <= this.#deps.clock.now()) throw conflict(`Offer ${offerId} has expired`, 'OFFER_EXPIRED');
    // The same single conditional update as POST /rides/status with ACCEPTED; the hook below closes the offers.
    return this.#deps.lifecycle.accept(user, offer.ride_id, user.id);
  }

  async decline(user: AuthUser, offerId: number, reason: string | null | undefined): Promise<Offer> {
    const offer = await this.#own(user, offerId);
    const declined = await this.#deps.transactions.run(async (tx) => {
      const row = await repository.decline(tx.db, offerId, user.id, reason ?? null, this.#deps.clock.now());
      if (row) this.#deps.events.ended(tx, [row], undefined);
      return row;
    });
    if (!declined) throw conflict(`Offer ${offerId} is ${offer.status === 'pending' ? 'no longer pending' : offer.status}`, 'OFFER_CLOSED');
    return toOffer(declined);
  }

  /**
   * Inside the transaction of every accept, whichever path it came by: the winner's offer is
   * accepted, every other pending offer of the ride (and of the winner) withdrawn at once, and the
   * pickup distance recorded on the ride (so the accept answer shows it too).
   */
  readonly onAccepted = async (tx: Tx, ride: RideRow): Promise<RideRow | void> => {
    const now = this.#deps.clock.now();
    const { accepted, withdrawn } = await repository.closeForRide(tx.db, ride.id, ride.driver_id, now);
    if (accepted) this.#deps.events.accepted(tx, accepted);
    this.#deps.events.ended(tx, withdrawn, 'offer.withdrawn');
    // Where the driver is now, from the location index (no database read inside the transaction
    // unless Redis is unreachable: then the stored position if fresh, so accepts keep working).
    const position = ride.driver_id === null ? undefined : await this.#deps.drivers.current(ride.driver_id, tx.db);
    if (position && ride.pickup_lat !== null && ride.pickup_lon !== null) {
      return this.#deps.rides.recordPickupDistance(tx, ride.id, haversineKm(position, { lat: ride.pickup_lat, lon: ride.pickup_lon }));
    }
  };

  /** A driver who goes offline gives their pending offer back: the ride goes to someone else at once. */
  async driverLeft(driverId: number): Promise<void> {
    await this.#deps.transactions.run(async (tx) => {
      this.#deps.events.ended(tx, await repository.withdrawForDriver(tx.db, driverId, this.#deps.clock.now()), 'offer.withdrawn');
    });
  }

  /** Inside a cancellation's transaction: the ride's pending offers are withdrawn. */
  readonly onCancelled = async (tx: Tx, ride: RideRow): Promise<void> => {
    const { withdrawn } = await repository.closeForRide(tx.db, ride.id, null, this.#deps.clock.now());
    this.#deps.events.ended(tx, withdrawn, 'offer.withdrawn');
  };

  /** How drivers answered the offers of a period (what-if replays fit their acceptance to it). */
  async answeredBetween(from: number, to: number, limit: number): Promise<Array<{ rideId: number; pickupKm: number; pickupEtaMinutes: number; fare: number; accepted: boolean; answerMs: number }>> {
    const rows = await repository.answeredBetween(this.#deps.db, from, to, limit);
    return rows.map((row) => ({
      rideId: row.ride_id,
      pickupKm: Number(row.pickup_distance_km),
      pickupEtaMinutes: Number(row.pickup_eta_minutes),
      fare: Number(row.fare),
      accepted: row.status === 'accepted',
      // How long the driver took to answer (an expired offer: until the sweep saw it expire).
      answerMs: Math.max(0, Number(row.answered_at ?? row.created_at) - Number(row.created_at)),
    }));
  }

  async #own(user: AuthUser, offerId: number): Promise<repository.OfferRow> {
    const offer = await repository.findOffer(this.#deps.db, offerId);
    // Someone else's offer is as unknown as a missing one.
    if (!offer || offer.driver_id !== user.id) throw notFound(`Offer ${offerId} not found`);
    return offer;
  }
}
