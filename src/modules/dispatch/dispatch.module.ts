import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, ServiceBus, UserHub } from '../../events.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DriverLocationIndex } from '../../platform/geo/driver-index.ts';
import type { Lease } from '../../platform/lease.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import type { ZoneTable } from '../insights/zone-table.service.ts';
import type { RideServices } from '../rides/rides.module.ts';
import { Availability } from './availability.ts';
import { Dispatcher, type DispatchSettings } from './dispatcher.ts';
import { OfferEvents } from './offer-events.ts';
import * as repository from './offers.repository.ts';
import { OffersService } from './offers.service.ts';
import { UpcomingRides } from './upcoming.service.ts';
import type { PickupWays } from './pickup-ways.ts';

export interface DispatchModuleDependencies {
  db: Db;
  transactions: Transactions;
  bus: ServiceBus;
  hub: UserHub;
  clock: Clock;
  log: FastifyBaseLogger;
  /** What dispatch reacts to: drivers' positions and profiles, rides booked and moved. */
  events: DomainEventsDispatcher;
  /** One index per vehicle type for available drivers (memory or Redis, like the main index). */
  indexes: Record<VehicleType, DriverLocationIndex>;
  lease: Lease;
  drivers: DriversService;
  profiles: DriverProfiles;
  rides: RideServices;
  zones: ZoneTable;
  /** Drivers' ways to pickups by road in learned minutes (built in app.ts, shared with the estimates' pickup waits). */
  ways: PickupWays;
  settings: DispatchSettings;
}

export interface DispatchServices {
  offers: OffersService;
  /** Rides booked ahead as drivers see and take them. */
  upcoming: UpcomingRides;
  dispatcher: Dispatcher;
  availability: Availability;
}

/** Matching rides to drivers: who is available, the offers, and the leader's rounds. */
export async function createDispatch(deps: DispatchModuleDependencies): Promise<DispatchServices> {
  const { db, transactions, bus, clock, log, drivers, profiles, rides } = deps;
  const availability = new Availability({
    indexes: deps.indexes,
    lookup: async (driverIds) => {
      const [vehicles, busy, offered] = await Promise.all([profiles.dispatchable(driverIds), rides.dispatch.busyAmong(driverIds), repository.offeredAmong(db, driverIds)]);
      return new Map(driverIds.map((id) => [id, { vehicle: vehicles.get(id), busy: busy.has(id), offered: offered.has(id) }]));
    },
    position: (driverId) => drivers.position(driverId),
    bus,
    clock,
  });
  await availability.listen();
  // Only nearest mode offers between rounds; batched rounds come on their own timer.
  const nudge = deps.settings.mode === 'nearest' ? () => void bus.publish('dispatch.nudge', {}).catch(() => undefined) : () => undefined;
  const offerEvents = new OfferEvents({ hub: deps.hub, nudge, availability, log, events: deps.events });
  const offers = new OffersService({ db, transactions, lifecycle: rides.lifecycle, rides: rides.dispatch, drivers, events: offerEvents, clock });

  // What dispatch reacts to (platform/domain-events.ts: after commit, a failure is logged).
  const { events } = deps;
  events.afterCommit('driver.positioned', (position) => availability.onPosition(position));
  events.afterCommit('drivers.restored', ({ positions }) => availability.restore(positions));
  events.afterCommit('driver.offline', async ({ driverId }) => {
    await availability.withdraw(driverId);
    await offers.driverLeft(driverId);
  });
  events.afterCommit('driver.profile-changed', async ({ driverId }) => {
    await availability.recheck(driverId);
    await availability.changed(driverId);
  });
  // In the unit of a ride's step: an accept closes the ride's offers (and records how far the driver
  // was), a cancellation withdraws them.
  events.inUnit('ride.moving', async (tx, moving) => {
    if (moving.ride.status === 'ACCEPTED') moving.ride = (await offers.onAccepted(tx, moving.ride)) ?? moving.ride;
    else if (moving.ride.status === 'CANCELLED') await offers.onCancelled(tx, moving.ride);
  });
  // A booking, or a ride booked ahead whose time has come, may be offered at once (nearest mode); a driver whose ride ended is free again.
  events.afterCommit('ride.booked', nudge);
  events.afterCommit('ride.released', nudge);
  events.afterCommit('ride.moved', async ({ ride }) => {
    if (ride.status === 'REQUESTED' || ride.driver_id === null || ride.status === 'PICKED') return;
    await (ride.status === 'ACCEPTED' ? availability.withdraw(ride.driver_id) : availability.recheck(ride.driver_id));
  });

  const dispatcher = new Dispatcher({ transactions, rides: rides.dispatch, availability, events: offerEvents, zones: deps.zones, ways: deps.ways, db, lease: deps.lease, bus, clock, log }, deps.settings);
  await dispatcher.start();
  const upcoming = new UpcomingRides({ rides: rides.scheduleDrivers, profiles, drivers });
  return { offers, upcoming, dispatcher, availability };
}
