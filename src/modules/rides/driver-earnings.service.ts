import type { Db } from '../../db/database.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { localDate, toIso, type Clock } from '../../platform/clock.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { PricingRules } from '../pricing/pricing.schemas.ts';
import * as repository from './earnings.repository.ts';
import type { Earnings, EarningsQuery } from './earnings.schemas.ts';
import { earningsPeriod, rideEarning, summariseEarnings } from './earnings.ts';

/** GET /drivers/me/earnings: the caller's rides, fares, shares, tolls and penalties in a period, per day. */
export class DriverEarnings {
  readonly #db: Db;
  readonly #pricing: Pick<Pricing, 'rules'>;
  readonly #clock: Clock;
  readonly #timeZone: string;

  constructor(deps: { db: Db; pricing: Pick<Pricing, 'rules'>; clock: Clock; timeZone: string }) {
    this.#db = deps.db;
    this.#pricing = deps.pricing;
    this.#clock = deps.clock;
    this.#timeZone = deps.timeZone;
  }

  async earnings(user: AuthUser, query: EarningsQuery): Promise<Earnings> {
    const period = earningsPeriod(query, this.#clock.now(), this.#timeZone);
    const [rows, penalties] = await Promise.all([
      repository.completedBy(this.#db, user.id, period.start, period.end),
      repository.penaltiesOf(this.#db, user.id, period.start, period.end),
    ]);
    // Each ride by the rules it was priced with: its version's driver share.
    const versions = [...new Set(rows.map((row) => row.pricing_version))];
    const rules = new Map<number, PricingRules>(await Promise.all(versions.map(async (version) => [version, await this.#pricing.rules(version)] as const)));
    const rides = rows.map((row) => rideEarning(row, rules.get(row.pricing_version)!, this.#timeZone));
    return summariseEarnings(
      period,
      this.#timeZone,
      rides,
      penalties.map((row) => ({ rideId: row.id, date: localDate(row.cancelled_at, this.#timeZone), at: toIso(row.cancelled_at), amountInInr: row.driver_penalty })),
    );
  }
}
