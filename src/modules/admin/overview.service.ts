import { startOfLocalDay, toIso, type Clock } from '../../platform/clock.ts';
import type { AvailableDrivers } from '../dispatch/available-drivers.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RideStats } from '../rides/ride-stats.service.ts';
import type { Incidents } from '../safety/incidents.service.ts';
import type { Overview } from './operations.schemas.ts';

const HOUR_MS = 3_600_000;

export interface OverviewDependencies {
  stats: Pick<RideStats, 'live' | 'bookedSince' | 'waitsSince' | 'bookedAhead'>;
  drivers: Pick<DriversService, 'onlineCount'>;
  availability: Pick<AvailableDrivers, 'countByVehicle'>;
  payments: Pick<PaymentsService, 'receivedSince'>;
  incidents: Pick<Incidents, 'figures'>;
  clock: Clock;
  /** SERVICE_TIMEZONE: "today" starts at its midnight. */
  timeZone: string;
  /**
   * SIMULATION_SPEED (1 but in simulations): a simulated city at 20× lives an hour in three minutes,
   * and a 40-second wait of its clock takes 2 s of the service's. The last hour and its waits are
   * then the city's, so they compare with what the simulation reports.
   */
  simulationSpeed?: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The operators' live figures: each from an aggregate over an index (never by loading rides) or
 * from the live state the other modules keep, so the answer costs the same with a million rides.
 */
export class AdminOverview {
  readonly #deps: OverviewDependencies;

  constructor(deps: OverviewDependencies) {
    this.#deps = deps;
  }

  async figures(): Promise<Overview> {
    const now = this.#deps.clock.now();
    const speed = this.#deps.simulationSpeed ?? 1;
    const todayStartedAt = startOfLocalDay(now, this.#deps.timeZone);
    const [booked, live, waits, online, available, payments, incidents, ahead] = await Promise.all([
      this.#deps.stats.bookedSince(todayStartedAt),
      this.#deps.stats.live(),
      this.#deps.stats.waitsSince(now - HOUR_MS / speed),
      this.#deps.drivers.onlineCount(),
      this.#deps.availability.countByVehicle(),
      this.#deps.payments.receivedSince(todayStartedAt),
      this.#deps.incidents.figures(todayStartedAt),
      this.#deps.stats.bookedAhead(),
    ]);
    const ridesToday = booked.rides;
    const bookedToday = Object.values(ridesToday).reduce((sum, rides) => sum + rides, 0);
    return {
      generatedAt: toIso(now),
      timeZone: this.#deps.timeZone,
      todayStartedAt: toIso(todayStartedAt),
      ridesToday,
      openRequests: live.openRequests,
      bookedAhead: ahead,
      cancellationRate: bookedToday === 0 ? null : round(ridesToday.CANCELLED / bookedToday, 4),
      completedFaresInr: booked.completedFares,
      payments: { received: payments.count, amountInInr: payments.amountInInr },
      drivers: {
        online,
        available: Object.values(available).reduce((sum, count) => sum + count, 0),
        availableByVehicle: available,
        busy: live.busyDrivers,
      },
      simulationSpeed: speed,
      incidents: { open: incidents.open, acknowledged: incidents.acknowledged, acknowledgedToday: incidents.acknowledgedSince, meanAcknowledgeSeconds: incidents.meanAckSeconds },
      lastHour: {
        acceptedRides: waits.accepted,
        meanAcceptDelaySeconds: waits.acceptDelayMs === null ? null : round((waits.acceptDelayMs * speed) / 1000, 1),
        pickedUpRides: waits.picked,
        meanPickupMinutes: waits.pickupMs === null ? null : round((waits.pickupMs * speed) / 60_000, 2),
      },
    };
  }
}
