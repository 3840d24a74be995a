import type { DomainEventsDispatcher } from '../../events.ts';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import * as repository from './rides.repository.ts';
import type { RideStatus } from './rides.schemas.ts';

/** What payments and refunds need to know of a ride. */
export interface RideMoney {
  id: number;
  riderId: number;
  status: RideStatus;
  /** The provider payment that paid the ride, if one did. */
  paymentReference: string | null;
  /** What the rider owes online in rupees: the fare, or the fee of a cancelled ride (0 without one, and 0 once paid in cash). */
  owedInr: number;
  /** Completed and paid to the driver in cash: an online payment that still arrives is refunded whole. */
  paidInCash: boolean;
  refundedInr: number;
}

export function moneyOf(row: repository.RideRow): RideMoney {
  const paidInCash = row.status === 'COMPLETED' && row.payment_status === 'PAID' && row.payment_mode === 'CASH' && row.payment_reference === null;
  return {
    id: row.id,
    riderId: row.rider_id,
    status: row.status as RideStatus,
    paymentReference: row.payment_status === 'PAID' ? row.payment_reference : null,
    paidInCash,
    owedInr: paidInCash ? 0 : row.status === 'CANCELLED' ? (row.cancellation_fee ?? 0) : row.fare,
    refundedInr: row.refunded_amount,
  };
}

/** What the payments module needs of a ride: what is owed, and recording payments and refunds on it. */
export class RidePayments {
  readonly #db: Db;
  readonly #events: DomainEventsDispatcher;

  constructor(db: Db, events: DomainEventsDispatcher) {
    this.#db = db;
    this.#events = events;
  }

  /** What the rider owes for a ride: its fare, or the fee of a cancelled ride. Only the rider pays. */
  async amountDue(user: AuthUser, id: number): Promise<number> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    if (ride.rider_id !== user.id) throw forbidden('You can only pay for your own rides');
    if (ride.payment_status === 'PAID') throw conflict(`Ride ${id} is already paid`, 'RIDE_ALREADY_PAID');
    const owed = moneyOf(ride).owedInr;
    if (owed === 0) throw conflict(`Ride ${id} was cancelled without a fee; there is nothing to pay`, 'NOTHING_TO_PAY');
    return owed;
  }

  /**
   * Inside the payment's transaction, once the provider's signature checked out. The ride is paid by
   * the first payment only (a later one keeps the first reference: the caller refunds it); the ride
   * as it is now, or undefined for an unknown ride.
   */
  async recordPaid(tx: Tx, id: number, paymentId: string): Promise<RideMoney | undefined> {
    const row = await repository.setPaid(tx.db, id, paymentId);
    if (row) await this.#announce(tx, row);
    return row && moneyOf(row);
  }

  /** A failed payment, unless another one paid the ride. */
  recordFailed(tx: Tx, id: number): Promise<void> {
    return repository.setPaymentFailed(tx.db, id);
  }

  /** The ride, locked for the rest of the transaction so no other payment or refund of it interleaves. */
  async lock(tx: Tx, id: number): Promise<RideMoney | undefined> {
    const row = await repository.lockRide(tx.db, id);
    return row && moneyOf(row);
  }

  /** Rupees refunded (negative: a refund the provider turned down); the ride's row as it is now. */
  async recordRefunded(tx: Tx, id: number, rupees: number): Promise<repository.RideRow | undefined> {
    const row = await repository.addRefunded(tx.db, id, rupees);
    if (row) await this.#announce(tx, row);
    return row;
  }

  /** The rider's and driver's apps hear that the ride's money changed (paymentStatus, refundedAmountInInr). */
  #announce(tx: Tx, row: repository.RideRow): Promise<void> {
    return this.#events.emit(tx, 'ride.moved', { ride: row, from: row.status as RideStatus });
  }
}
