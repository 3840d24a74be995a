import type { DomainEventsDispatcher } from '../../events.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { feedbackParty } from './ride-access.ts';
import { toRide } from './ride-views.ts';
import * as repository from './rides.repository.ts';
import type { Ride } from './rides.schemas.ts';

/** The rider rates the driver, the driver rates the rider; once each, after completion. */
export class RideFeedback {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #events: DomainEventsDispatcher;

  constructor(deps: { db: Db; transactions: Transactions; events: DomainEventsDispatcher }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#events = deps.events;
  }

  async give(user: AuthUser, id: number, rating: number, comment: string | null | undefined): Promise<Ride> {
    const ride = await repository.findRide(this.#db, id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    const party = feedbackParty(user, ride);
    if (ride.status !== 'COMPLETED') throw badRequest(`Feedback needs a COMPLETED ride; ride ${id} is ${ride.status}`, 'RIDE_NOT_COMPLETED');
    const text = comment ?? '';
    const fields = party === 'rider' ? { rider_rating: rating, rider_feedback: text } : { driver_rating: rating, driver_feedback: text };
    const rated = { ...ride, ...fields };
    const saved = await this.#transactions.run(async (tx) => {
      if (!(await repository.setFeedback(tx.db, id, party, rating, text))) return false;
      // The other party's app shows the rating without asking again.
      await this.#events.emit(tx, 'ride.moved', { ride: rated, from: 'COMPLETED' });
      return true;
    });
    if (!saved) throw conflict('You already gave feedback for this ride', 'FEEDBACK_EXISTS');
    return toRide(rated);
  }
}
