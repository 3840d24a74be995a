import { badRequest } from '../../platform/errors.ts';
import type { OffersService } from '../dispatch/offers.service.ts';
import type { RideStats } from '../rides/ride-stats.service.ts';
import { acceptanceBands, cancellationBands, fitBehaviour } from './behaviour.ts';
import { SUPPLY_PERIOD_MAX_DAYS, type BehaviourFit, type BehaviourQuery } from './replay.schemas.ts';

/** The most recent offers and requests of a period a fit reads: plenty for three coefficients and a rate, and bounded in memory. */
export const FIT_SAMPLE_LIMIT = 200_000;
const PICKUP_KM_BANDS = [0, 0.5, 1, 2, 3, 5];
const WAIT_MINUTE_BANDS = [0, 1, 2, 5, 10];
const DAY_MS = 86_400_000;

export interface BehaviourDependencies {
  offers: Pick<OffersService, 'answeredBetween'>;
  rides: Pick<RideStats, 'requestsBetween'>;
  /** SIMULATION_SPEED: a simulated city's trips last their quoted minutes this many times shorter on the clock. */
  simulationSpeed?: number;
}

/** How drivers took offers, how long riders waited and trips held their drivers in a period, fitted for what-if replays (GET /admin/behaviour). */
export class BehaviourFits {
  readonly #deps: BehaviourDependencies;

  constructor(deps: BehaviourDependencies) {
    this.#deps = deps;
  }

  async fit({ from, to }: BehaviourQuery): Promise<BehaviourFit> {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!(end > start)) throw badRequest('from must be before to');
    if (end - start > SUPPLY_PERIOD_MAX_DAYS * DAY_MS) throw badRequest(`A period is at most ${SUPPLY_PERIOD_MAX_DAYS} days`);
    const [offers, requests] = await Promise.all([this.#deps.offers.answeredBetween(start, end, FIT_SAMPLE_LIMIT), this.#deps.rides.requestsBetween(start, end, FIT_SAMPLE_LIMIT)]);
    const { waits, acceptance, cancellation, answers, tripTimes } = fitBehaviour(offers, requests, this.#deps.simulationSpeed);
    return {
      from: new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      acceptance: { ...acceptance, byPickupKm: acceptanceBands(acceptance, offers, PICKUP_KM_BANDS) },
      cancellation: { ...cancellation, byWaitMinutes: cancellationBands(cancellation, waits, WAIT_MINUTE_BANDS) },
      answers,
      tripTimes,
    };
  }
}
