import type { DomainEventsDispatcher } from '../../events.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { parsePaymentMode, PAYMENT_MODES } from '../../platform/vocabulary.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { Ride, RideStatus } from './rides.schemas.ts';

/**
 * The rider changes how they pay: any mode before the ride ends, and cash once it has ended unpaid
 * (the online checkout cannot be reached, say). Cash after the ride is paid there and then to the
 * driver, as every cash ride is at completion, so the ride is PAID at once and the driver's app says
 * to collect it. A cancelled ride's fee is paid online only: nobody is there to hand cash to.
 */
export class RidePaymentMode {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #events: DomainEventsDispatcher;

  constructor(deps: { db: Db; transactions: Transactions; events: DomainEventsDispatcher }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#events = deps.events;
  }

  async change(user: AuthUser, id: number, value: string): Promise<Ride> {
    const mode = parsePaymentMode(value);
    if (!mode) throw badRequest(`paymentMode must be one of ${PAYMENT_MODES.join(', ')}`);
    const changed = await this.#transactions.run(async (tx) => {
      const row = await repository.setPaymentMode(tx.db, id, user.id, mode);
      if (row) await this.#events.emit(tx, 'ride.moved', { ride: row, from: row.status as RideStatus });
      return row;
    });
    if (changed) return toRide(changed, { codes: 'both' });
    throw await this.#refusal(user, id);
  }

  /** Why the conditional update changed nothing. */
  async #refusal(user: AuthUser, id: number): Promise<Error> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) return notFound(`Ride ${id} not found`);
    if (ride.rider_id !== user.id) return forbidden('Only the ride\'s rider chooses how to pay for it');
    if (ride.payment_status === 'PAID') return conflict(`Ride ${id} is already paid`, 'RIDE_ALREADY_PAID');
    if (ride.status === 'CANCELLED') return conflict('A cancelled ride\'s fee is paid online; its payment mode no longer changes', 'PAYMENT_MODE_FIXED');
    return conflict(`Ride ${id} has ended: pay it online (POST /payments/order names the mode), or switch to CASH and pay the driver`, 'PAYMENT_MODE_FIXED');
  }
}
