import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import * as repository from './rides.repository.ts';

/** What the payments module needs of a ride: what is owed, and recording the outcome on the ride. */
export class RidePayments {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** What the rider owes for a ride: its fare, or the fee of a cancelled ride. Only the rider pays. */
  async amountDue(user: AuthUser, id: number): Promise<number> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    if (ride.rider_id !== user.id) throw forbidden('You can only pay for your own rides');
    if (ride.payment_status === 'PAID') throw conflict(`Ride ${id} is already paid`, 'RIDE_ALREADY_PAID');
    if (ride.status !== 'CANCELLED') return ride.fare;
    if (!ride.cancellation_fee) throw conflict(`Ride ${id} was cancelled without a fee; there is nothing to pay`, 'NOTHING_TO_PAY');
    return ride.cancellation_fee;
  }

  /** Inside the payment's transaction, once the provider's signature checked out (or a failure was reported). */
  recordPayment(tx: Tx, id: number, outcome: { paid: true; reference: string } | { paid: false }): Promise<void> {
    return repository.setPaymentOutcome(tx.db, id, outcome.paid ? { payment_status: 'PAID', payment_reference: outcome.reference } : { payment_status: 'FAILED' });
  }
}
