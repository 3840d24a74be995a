import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionRefused } from '../../db/errors.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import { insertBookings, isSlotTaken, type Booking, type SavedBooking } from './booking.repository.ts';
import type { RideRow } from './rides.repository.ts';

/** Bookings written together at most (one statement's JSON stays around 100 KB). */
const MAX_BATCH = 100;
/**
 * Batches being written at once. One: while it is written the next one gathers, so batches are as
 * large as the load makes them, and the database spends least per booking (measured on two cores
 * with PostgreSQL: 3,400-3,500 bookings/s with one, 2,900-3,200 with two or four).
 */
const MAX_IN_FLIGHT = 1;
/**
 * Waits before a unit whose connection was refused is tried again (PostgreSQL at max_connections,
 * a pool that waited too long): 1.5 s in all, so a moment's crowding costs no booking, while a
 * database that stays full answers 503 (with Retry-After) well within a client's timeout.
 */
const REFUSED_RETRY_MS = [100, 400, 1000];

interface Request {
  booking: Booking;
  /**
   * Runs in the unit once the booking is saved, for what must follow the commit (`ride.booked` has
   * afterCommit handlers only): on PostgreSQL the unit is one statement and must stay one.
   */
  then: (tx: Tx, saved: SavedBooking) => unknown;
}

interface Pending extends Request {
  resolve: (ride: RideRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes bookings many at a time where the database needs it: on PostgreSQL the bookings that arrive
 * while earlier ones are being written share one statement (measured on two cores: 3,400 booking
 * statements a second one at a time, 13,800 in tens). A batch takes what arrived in one turn of the
 * event loop, so a quiet service adds no wait. A rider has one booking being written at a time (a
 * statement's rows cannot see each other's slots, and two statements at once would race for one),
 * and a batch that fails (a race for a slot with another instance, a lost connection) is tried again
 * one booking at a time, so one booking's failure is never another's. A refused connection is waited
 * out and tried again (REFUSED_RETRY_MS) before anyone is told.
 *
 * On SQLite each booking is a unit of its own: the group commit already writes the units that arrive
 * together in one commit, and batching on top of it measured slower.
 */
export class BookingWriter {
  readonly #transactions: Transactions;
  readonly #maxOpen: number;
  readonly #batches: boolean;
  readonly #queue: Pending[] = [];
  /** Riders with a booking being written: their next one waits for a later batch. */
  readonly #ridersInFlight = new Set<number>();
  #inFlight = 0;
  #scheduled = false;

  constructor(transactions: Transactions, maxOpenRides: number) {
    this.#transactions = transactions;
    this.#maxOpen = maxOpenRides;
    this.#batches = !transactions.groupsUnits;
  }

  /**
   * Books the ride. Settles after the commit: the saved ride, or undefined when the rider holds as
   * many open rides as allowed (or lost a race for the last slot to another instance).
   */
  async write(booking: Booking, then: Request['then']): Promise<RideRow | undefined> {
    if (!this.#batches) return (await this.#refusedRetried([{ booking, then }]))[0];
    return new Promise((resolve, reject) => {
      this.#queue.push({ booking, then, resolve, reject });
      // Batches form once the requests read in this turn of the event loop have queued too.
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#next();
        });
      }
    });
  }

  #next(): void {
    while (this.#inFlight < MAX_IN_FLIGHT && this.#queue.length > 0) {
      const batch = this.#take();
      if (batch.length === 0) return;
      this.#inFlight++;
      void this.#write(batch).finally(() => {
        this.#inFlight--;
        for (const pending of batch) this.#ridersInFlight.delete(pending.booking.ride.rider_id);
        this.#next();
      });
    }
  }

  /** The oldest waiting bookings of riders with none being written, one each, up to MAX_BATCH. */
  #take(): Pending[] {
    const batch: Pending[] = [];
    let kept = 0;
    for (const pending of this.#queue) {
      const rider = pending.booking.ride.rider_id;
      if (batch.length < MAX_BATCH && !this.#ridersInFlight.has(rider)) {
        this.#ridersInFlight.add(rider);
        batch.push(pending);
      } else {
        this.#queue[kept++] = pending;
      }
    }
    this.#queue.length = kept;
    return batch;
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      const rides = await this.#refusedRetried(batch);
      batch.forEach((pending, i) => pending.resolve(rides[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One after another: a hundred units at once would ask the pool for every connection it may
      // open, and a database near max_connections would refuse them all.
      for (const pending of batch) await this.#write([pending]);
    }
  }

  /** The unit, tried again while no connection could be had: nothing of it reached the database. */
  async #refusedRetried(requests: Request[]): Promise<Array<RideRow | undefined>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#unit(requests);
      } catch (error) {
        if (!isConnectionRefused(error) || attempt >= REFUSED_RETRY_MS.length) throw error;
        await sleep(REFUSED_RETRY_MS[attempt]);
      }
    }
  }

  /** One unit of work for the bookings (one statement on PostgreSQL). */
  async #unit(requests: Request[]): Promise<Array<RideRow | undefined>> {
    try {
      return await this.#transactions.run(
        async (tx) => {
          const saved = await insertBookings(
            tx.db,
            requests.map((request) => request.booking),
            this.#maxOpen,
          );
          for (const [i, booking] of saved.entries()) if (booking) await requests[i].then(tx, booking);
          return saved.map((booking) => booking?.ride);
        },
        { singleStatement: true },
      );
    } catch (error) {
      if (requests.length === 1 && isSlotTaken(error)) return [undefined];
      throw error;
    }
  }
}
