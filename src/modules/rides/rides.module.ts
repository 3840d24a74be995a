import type { FastifyBaseLogger } from 'fastify';
import type { ScheduleConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, ServiceBus, UserHub } from '../../events.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Counters } from '../../platform/counters.ts';
import type { ReceiptSigner } from '../../platform/receipt-signing.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { BookingService } from './booking.service.ts';
import { BookingWriter } from './booking-writer.ts';
import type { FareQuotes } from '../pricing/fare-quotes.ts';
import { RideCancellation } from './ride-cancellation.service.ts';
import { RideCodes } from './ride-codes.ts';
import { RideDispatch } from './ride-dispatch.service.ts';
import { DriverEarnings } from './driver-earnings.service.ts';
import { RideFeedback } from './ride-feedback.service.ts';
import { RideLifecycle } from './ride-lifecycle.service.ts';
import { RidePaymentMode } from './ride-payment-mode.ts';
import { RidePayments } from './ride-payments.service.ts';
import { RidePeople } from './ride-people.ts';
import { RideQueries } from './ride-queries.service.ts';
import { RideReceipts } from './ride-receipts.service.ts';
import { RideSchedule } from './ride-schedule.service.ts';
import { ScheduledRideDrivers } from './ride-schedule-drivers.service.ts';
import { RideSnapshots } from './ride-snapshots.ts';
import { RideTracking } from './ride-tracking.service.ts';
import { RideEtas, type LearnedTimes } from './ride-etas.ts';
import { ArrivalNotices } from './ride-arrival.ts';
import { RideTransitions } from './ride-transitions.ts';
import { RideUpdates } from './ride-updates.ts';
import type { Router } from '../../platform/routing/router.ts';
import { RideCharges } from './ride-charges.service.ts';
import { RideStops } from './ride-stops.service.ts';
import { DestinationChanges } from './destination-change.service.ts';
import { TripFares } from './trip-fares.ts';
import { TripMeter } from './trip-meter.ts';

export interface RideModuleDependencies {
  db: Db;
  transactions: Transactions;
  bus: ServiceBus;
  hub: UserHub;
  clock: Clock;
  counters: Counters;
  log: FastifyBaseLogger;
  /** What the rides module emits (`ride.booked`, `ride.moving`, `ride.moved`) and reacts to. */
  events: DomainEventsDispatcher;
  users: Pick<AuthService, 'findUser' | 'findUsers'>;
  drivers: DriversService;
  profiles: Pick<DriverProfiles, 'assertMayAccept' | 'vehicles' | 'lockIn'>;
  notifications: NotificationsService;
  settings: Pick<SettingsService, 'paymentMethodOf' | 'sharesTrips'>;
  pricing: Pick<Pricing, 'current' | 'rules'>;
  /** Pricing's fare quotes (routing, the pickup zone's surge from insights, the pickup wait): what an estimate shows and a booking charges. */
  quotes: FareQuotes;
  /** Signs receipts with the service's key (platform/receipt-signing.ts). */
  signer: Pick<ReceiptSigner, 'sign'>;
  /** Where an operator's steps on a ride are recorded (an admin accepting for a driver, cancelling, …). */
  audit: AuditLog;
  maxOpenRidesPerRider: number;
  /** MAX_RIDE_KM. */
  maxRideKm: number;
  /** SERVICE_TIMEZONE: where a driver's earning days begin. */
  timeZone: string;
  /** Measures the stretches of a trip the driver's positions leave a gap in, and the last one to the drop. */
  router: Pick<Router, 'route'>;
  /** Insights' learned travel times: the rider's live ETA is in the same learned minutes as quotes and offers. */
  travelTimes: LearnedTimes;
  /** FARE_RECOMPUTE_TOLERANCE. */
  fareRecomputeTolerance: number;
  /** SCHEDULE_*: the booking window of rides booked ahead and their dispatch lead. */
  schedule: ScheduleConfig;
  /** How often the timers of rides booked ahead are looked at (a dispatch round's length). */
  scheduleIntervalMs: number;
}

/** The ride module's services, one job each. */
export interface RideServices {
  quotes: FareQuotes;
  booking: BookingService;
  lifecycle: RideLifecycle;
  charges: RideCharges;
  /** The driver's marks at the ride's stops and the end of each wait. */
  stops: RideStops;
  /** The rider's change of destination: a quote, then its confirmation. */
  destination: DestinationChanges;
  cancellation: RideCancellation;
  feedback: RideFeedback;
  tracking: RideTracking;
  queries: RideQueries;
  /** Signed receipts of finished rides. */
  receipts: RideReceipts;
  /** A driver's earnings from the rides they drove. */
  earnings: DriverEarnings;
  payments: RidePayments;
  /** The rider's choice of how to pay (cash when the online checkout fails). */
  paymentMode: RidePaymentMode;
  transitions: RideTransitions;
  /** What dispatch reads of rides and records on them. */
  dispatch: RideDispatch;
  /** Rides booked ahead: each enters dispatch at its lead time, or goes to the driver who took it (started once dispatch listens). */
  schedule: RideSchedule;
  /** The rides booked ahead a driver could take, and taking one ahead. */
  scheduleDrivers: ScheduledRideDrivers;
  drivers: DriversService;
}

export async function createRideServices(deps: RideModuleDependencies): Promise<RideServices> {
  const { db, transactions, clock, notifications, drivers, events } = deps;
  const snapshots = new RideSnapshots(db, deps.bus, clock);
  await snapshots.listen();
  const people = new RidePeople({ users: deps.users, profiles: deps.profiles });
  const updates = new RideUpdates({ snapshots, hub: deps.hub, drivers, people, log: deps.log });
  // What the rides module reacts to: its own committed changes, told to the apps in commit order.
  events.afterCommit('ride.booked', ({ ride }) => updates.announce(ride, null));
  events.afterCommit('ride.moved', ({ ride, from }) => updates.announce(ride, from));
  events.afterCommit('ride.released', ({ ride }) => updates.announce(ride, 'REQUESTED'));
  const transitions = new RideTransitions({ transactions, notifications, events, drivers, audit: deps.audit });
  const cancellation = new RideCancellation({ db, transitions, pricing: deps.pricing, clock });
  // An erased rider's open rides are cancelled in the erasure's unit: the places they typed leave every list.
  events.inUnit('account.erasing', (tx, { userId }) => cancellation.cancelOpenOf(tx, userId, "The rider's account was erased"));
  const arrival = new ArrivalNotices({ transactions, notifications, clock });
  const meter = new TripMeter({ db, transactions, router: deps.router, clock });
  const fares = new TripFares({ pricing: deps.pricing, meter, clock, timeZone: deps.timeZone, tolerance: deps.fareRecomputeTolerance });
  const stops = new RideStops({ db, transactions, updates, clock });
  const etas = new RideEtas({ router: deps.router, learned: deps.travelTimes, clock });
  const tracking = new RideTracking({ snapshots, drivers, settings: deps.settings, arrival, meter, stops, hub: deps.hub, etas });
  // Positions enter through drivers from every door; the ride a driver is on follows them.
  events.afterCommit('driver.positioned', (position) => tracking.followPosition(position));
  const { quotes } = deps;
  return {
    quotes,
    booking: new BookingService({ writer: new BookingWriter(transactions, deps.maxOpenRidesPerRider), quotes, settings: deps.settings, notifications, events, clock, maxOpenRides: deps.maxOpenRidesPerRider, maxRideKm: deps.maxRideKm, schedule: deps.schedule }),
    lifecycle: new RideLifecycle({ db, transitions, cancellation, fares, codes: new RideCodes(deps.counters), profiles: deps.profiles, clock }),
    charges: new RideCharges({ db, transactions, pricing: deps.pricing, updates, clock }),
    stops,
    destination: new DestinationChanges({ db, transactions, router: deps.router, pricing: deps.pricing, updates, clock, timeZone: deps.timeZone, maxRideKm: deps.maxRideKm }),
    cancellation,
    feedback: new RideFeedback({ db, transactions, events }),
    tracking,
    queries: new RideQueries({ db, users: deps.users, people, drivers, tracking }),
    receipts: new RideReceipts({ db, pricing: deps.pricing, signer: deps.signer, timeZone: deps.timeZone }),
    earnings: new DriverEarnings({ db, pricing: deps.pricing, clock, timeZone: deps.timeZone }),
    payments: new RidePayments(db, events),
    paymentMode: new RidePaymentMode({ db, transactions, events }),
    transitions,
    dispatch: new RideDispatch({ db, transactions, notifications, events }),
    schedule: new RideSchedule({ db, transactions, events, transitions, notifications, drivers, clock, log: deps.log, dispatchLeadMs: deps.schedule.dispatchLeadMs, intervalMs: deps.scheduleIntervalMs }),
    scheduleDrivers: new ScheduledRideDrivers({ db, transactions, events, clock, profiles: deps.profiles }),
    drivers,
  };
}
