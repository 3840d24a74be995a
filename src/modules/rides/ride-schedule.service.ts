import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { driverNoShow, rideAccepted, rideReminder } from './ride-notifications.ts';
import { DRIVER_CHECK_MS, REMINDERS_MS } from './ride-schedule.ts';
import { claimReminders, confirmTaken, dropTaken, releaseDue, takenDue } from './ride-schedule.repository.ts';
import type { RideTransitions } from './ride-transitions.ts';
import type { RideRow } from './rides.repository.ts';

/** Rides booked ahead handled in one unit (or one look) at most; the next tick takes the rest. */
const BATCH = 200;

export interface RideScheduleDependencies {
  db: Db;
  transactions: Transactions;
  events: DomainEventsDispatcher;
  transitions: Pick<RideTransitions, 'move'>;
  notifications: Pick<NotificationsService, 'record'>;
  /** Whether the driver holding a ride is online when they must be. */
  drivers: Pick<DriversService, 'current'>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** SCHEDULE_DISPATCH_LEAD_MINUTES, in ms: how long before its time a ride booked ahead enters dispatch. */
  dispatchLeadMs: number;
  /** How often every instance looks for rides due (a dispatch round's length: a ride due waits at most one round). */
  intervalMs: number;
}

/**
 * The timers of rides booked ahead, kept in the database rather than in any one process: every
 * instance looks every `intervalMs` (and at start) for what is due and claims each with one
 * conditional update, so it happens once, whichever instance is up, however many are, and after any
 * restart. Due are: rides no driver took, at their dispatch lead (into dispatch); rides a driver took
 * ahead, DRIVER_CHECK_MS before (ACCEPTED for that driver if online and free, else into dispatch, the
 * rider told); reminders to the rider and the driver holding the ride, REMINDERS_MS before. The
 * service's clock decides what is due, so tests move time.
 */
export class RideSchedule {
  readonly #deps: RideScheduleDependencies;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: RideScheduleDependencies) {
    this.#deps = deps;
  }

  start(): void {
    void this.tick();
    this.#timer = setInterval(() => void this.tick(), this.#deps.intervalMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One look at what is due; a look already under way is not doubled. */
  tick(): Promise<void> {
    this.#running ??= this.#due()
      .catch((error: unknown) => this.#deps.log.error({ err: error }, 'rides booked ahead not handled; the next tick tries again'))
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  async #due(): Promise<void> {
    const now = this.#deps.clock.now();
    await this.#releaseDue(now);
    for (const ride of await takenDue(this.#deps.db, now + DRIVER_CHECK_MS, BATCH)) await this.#checkDriver(ride, now);
    await this.#remind(now);
  }

  /** The reminders due, each written (and sent live) in the unit that claims it. */
  async #remind(now: number): Promise<void> {
    for (;;) {
      const reminded = await this.#deps.transactions.run(async (tx) => {
        const rides = await claimReminders(tx.db, now, REMINDERS_MS, BATCH);
        await this.#deps.notifications.record(tx, rides.flatMap((ride) => rideReminder(ride, Math.round((ride.scheduled_at! - now) / 60_000))));
        return rides.length;
      });
      if (reminded < BATCH) return;
    }
  }

  async #releaseDue(now: number): Promise<void> {
    for (;;) {
      const released = await this.#deps.transactions.run(async (tx) => {
        const rides = await releaseDue(tx.db, now + this.#deps.dispatchLeadMs, now, BATCH);
        for (const ride of rides) await this.#deps.events.emit(tx, 'ride.released', { ride });
        return rides.length;
      });
      if (released < BATCH) return;
    }
  }

  /** The driver holding the ride is online and free: it is theirs (ACCEPTED). Otherwise it enters dispatch and both are told. */
  async #checkDriver(ride: RideRow, now: number): Promise<void> {
    const driverId = ride.driver_id!;
    if (await this.#deps.drivers.current(driverId)) {
      const accepted = await this.#deps.transitions.move(ride, { status: 'ACCEPTED', accepted_at: now, released_at: now }, rideAccepted, {
        update: (tx) => confirmTaken(tx.db, ride.id, driverId, now),
      });
      if (accepted) return;
    }
    await this.#deps.transactions.run(async (tx) => {
      const dropped = await dropTaken(tx.db, ride.id, driverId, now);
      if (!dropped) return;
      await this.#deps.notifications.record(tx, driverNoShow(dropped, driverId));
      await this.#deps.events.emit(tx, 'ride.released', { ride: dropped });
    });
  }
}
