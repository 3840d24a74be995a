import { badRequest } from '../../platform/errors.ts';
import { rideBreaches } from '../pricing/compliance.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { RideStats } from '../rides/ride-stats.service.ts';
import type { ComplianceQuery, ComplianceReport } from './compliance.schemas.ts';

const PAGE = 1_000;
/** A report reads every ride of its period: at most this long a period per call. */
export const MAX_PERIOD_DAYS = 92;

/** Every ride of a period checked against a compliance profile under the pricing version it was priced with. */
export class AdminCompliance {
  readonly #rides: Pick<RideStats, 'pricedBetween'>;
  readonly #pricing: Pick<Pricing, 'rules'>;

  constructor(deps: { rides: Pick<RideStats, 'pricedBetween'>; pricing: Pick<Pricing, 'rules'> }) {
    this.#rides = deps.rides;
    this.#pricing = deps.pricing;
  }

  async report(query: ComplianceQuery): Promise<ComplianceReport> {
    const profile = query.profile ?? 'IN-MVAG-2025';
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from < to)) throw badRequest('from must be before to');
    if (to - from > MAX_PERIOD_DAYS * 86_400_000) throw badRequest(`A report covers at most ${MAX_PERIOD_DAYS} days`);
    const breaches: ComplianceReport['breaches'] = [];
    let checked = 0;
    for (let afterId = 0; ; ) {
      const page = await this.#rides.pricedBetween(from, to, afterId, PAGE);
      for (const ride of page) {
        const rules = await this.#pricing.rules(ride.pricingVersion);
        for (const { rule, problem } of rideBreaches(profile, ride, rules)) breaches.push({ rideId: ride.id, pricingVersion: ride.pricingVersion, rule, problem });
      }
      checked += page.length;
      if (page.length < PAGE) break;
      afterId = page[page.length - 1].id;
    }
    return { profile, from: new Date(from).toISOString(), to: new Date(to).toISOString(), ridesChecked: checked, breaches };
  }
}
