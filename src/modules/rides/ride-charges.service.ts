import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { TripCharge } from '../pricing/pricing.schemas.ts';
import { assertDriverOf } from './ride-access.ts';
import type { RideUpdates } from './ride-updates.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { ChargeBody, Ride } from './rides.schemas.ts';
import { chargesOf } from './trip-fares.ts';
import * as trips from './trip.repository.ts';

/**
 * Tolls and parking the ride's driver paid on the way (POST /rides/{id}/charges), while PICKED,
 * passed through at cost and held under the ride's pricing version's cap per ride. The rider hears
 * of each at once (ride.updated); the fare at completion adds them.
 */
export class RideCharges {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #pricing: Pick<Pricing, 'rules'>;
  readonly #updates: Pick<RideUpdates, 'announce'>;
  readonly #clock: Clock;

  constructor(deps: { db: Db; transactions: Transactions; pricing: Pick<Pricing, 'rules'>; updates: Pick<RideUpdates, 'announce'>; clock: Clock }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#pricing = deps.pricing;
    this.#updates = deps.updates;
    this.#clock = deps.clock;
  }

  async add(user: AuthUser, id: number, body: ChargeBody): Promise<Ride> {
    // Two charges at once: one adds, the other reads the new total and tries again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const ride = await repository.findRide(this.#db, id);
      if (!ride) throw notFound(`Ride ${id} not found`);
      assertDriverOf(user, ride, 'add a toll or parking charge');
      if (ride.status !== 'PICKED') throw conflict(`Ride ${id} is ${ride.status}; tolls and parking are added while it is PICKED`, 'RIDE_NOT_PICKED');
      const { capPerRide } = (await this.#pricing.rules(ride.pricing_version)).tollsAndParking;
      const total = ride.charges_total + body.amountInInr;
      if (total > capPerRide) {
        throw conflict(`Tolls and parking on one ride are capped at ₹${capPerRide}; ₹${ride.charges_total} already added`, 'CHARGES_CAP_REACHED');
      }
      const charge: TripCharge = { kind: body.kind, amountInInr: body.amountInInr, note: body.note ?? '', addedAt: toIso(this.#clock.now()) };
      const updated = await this.#transactions.run(async (tx) => {
        const row = await trips.addCharge(tx.db, id, ride.charges_total, total, JSON.stringify([...chargesOf(ride), charge]));
        if (row) tx.afterCommit(() => this.#updates.announce(row, 'PICKED'));
        return row;
      });
      if (updated) return toRide(updated);
    }
    throw conflict(`Ride ${id} changed while the charge was being added; try again`, 'RIDE_CHANGED');
  }
}
