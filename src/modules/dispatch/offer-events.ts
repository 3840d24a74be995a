import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import { toIso } from '../../platform/clock.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { Availability } from './availability.ts';
import type { OfferRow } from './offers.repository.ts';
import type { Offer, OfferStatus } from './offers.schemas.ts';

export function toOffer(row: OfferRow): Offer {
  return {
    offerId: row.id,
    rideId: row.ride_id,
    rideType: row.ride_type as RideType,
    fare: row.fare,
    pickupLocation: row.pickup_location,
    dropLocation: row.drop_location,
    pickupLat: row.pickup_lat,
    pickupLon: row.pickup_lon,
    dropLat: row.drop_lat,
    dropLon: row.drop_lon,
    pickupDistanceKm: row.pickup_distance_km,
    pickupEtaMinutes: row.pickup_eta_minutes,
    expiresAt: toIso(row.expires_at),
    status: row.status as OfferStatus,
  };
}

/**
 * What follows a committed change of offers: the driver hears of it over the realtime channel, the
 * driver's availability changes on every instance, and the dispatcher is nudged to offer the ride
 * to someone else.
 */
export class OfferEvents {
  readonly #hub: UserHub;
  readonly #nudge: () => void;
  readonly #availability: Availability;
  readonly #log: FastifyBaseLogger;
  readonly #events: Pick<DomainEventsDispatcher, 'emitted'>;

  /** `nudge` asks the dispatcher for a round now (the ride goes to the next driver at once). */
  constructor(deps: { hub: UserHub; nudge: () => void; availability: Availability; log: FastifyBaseLogger; events: Pick<DomainEventsDispatcher, 'emitted'> }) {
    this.#hub = deps.hub;
    this.#nudge = deps.nudge;
    this.#availability = deps.availability;
    this.#log = deps.log;
    this.#events = deps.events;
  }

  created(tx: Tx, offer: OfferRow): void {
    tx.afterCommit(() => {
      // The driver's phone first: it is what the rider waits for. The driver leaves the available
      // drivers alongside (the database refuses them a second offer anyway).
      void this.#tell(offer, 'offer.created');
      void this.#events.emitted('offer.created', { driverId: offer.driver_id, offer: toOffer(offer) });
      void this.#update(offer, () => this.#availability.withdraw(offer.driver_id));
    });
  }

  /** Offers that ended without being accepted: the drivers are free again, then hear of it. */
  ended(tx: Tx, offers: readonly OfferRow[], message: 'offer.withdrawn' | 'offer.expired' | undefined): void {
    tx.afterCommit(() => {
      for (const offer of offers) void this.#update(offer, () => this.#availability.recheck(offer.driver_id)).then(() => message && this.#tell(offer, message));
      if (offers.length > 0) this.#nudge();
    });
  }

  /** The driver took the ride: they stay out of the available drivers. */
  accepted(tx: Tx, offer: OfferRow): void {
    tx.afterCommit(() => void this.#update(offer, () => this.#availability.withdraw(offer.driver_id)));
  }

  /** Changes the driver's availability here and tells every instance. */
  async #update(offer: OfferRow, change: () => Promise<void>): Promise<void> {
    try {
      await change();
      await this.#availability.changed(offer.driver_id);
    } catch (error) {
      this.#log.warn({ err: error, offerId: offer.id }, 'availability not updated after an offer changed');
    }
  }

  async #tell(offer: OfferRow, message: 'offer.created' | 'offer.withdrawn' | 'offer.expired'): Promise<void> {
    try {
      if (this.#hub.reaches(offer.driver_id)) await this.#hub.send(offer.driver_id, message, toOffer(offer));
    } catch (error) {
      this.#log.warn({ err: error, offerId: offer.id }, 'offer change not sent to the driver');
    }
  }
}
