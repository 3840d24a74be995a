import { isUniqueViolation } from '../../db/errors.ts';
import type { Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import { conflict } from '../../platform/errors.ts';
import type { PricingVersion } from '../pricing/pricing.schemas.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { WhatIf } from '../replay/what-if.service.ts';
import type { AuditTrail } from './audit.ts';
import type { PricingHistory, SavePricingBody } from './operations.schemas.ts';

/** What the audit trail keeps of a version: its number and rules (the entry itself says who and when). */
const rulesOf = ({ createdAt: _createdAt, createdBy: _createdBy, ...rules }: PricingVersion) => rules;

/** Operators' prices: the version in force and every earlier one, and a new version. */
export class AdminPricing {
  readonly #transactions: Transactions;
  readonly #pricing: Pick<Pricing, 'list' | 'current' | 'versionIn' | 'create'>;
  readonly #audit: Pick<AuditTrail, 'record'>;
  readonly #whatIf: Pick<WhatIf, 'citation'>;

  constructor(deps: { transactions: Transactions; pricing: Pick<Pricing, 'list' | 'current' | 'versionIn' | 'create'>; audit: Pick<AuditTrail, 'record'>; whatIf: Pick<WhatIf, 'citation'> }) {
    this.#transactions = deps.transactions;
    this.#pricing = deps.pricing;
    this.#audit = deps.audit;
    this.#whatIf = deps.whatIf;
  }

  history(): PricingHistory {
    const versions = this.#pricing.list();
    const { version } = this.#pricing.current();
    return { current: versions.find((stored) => stored.version === version)!, versions };
  }

  /**
   * A new version, in force on every instance within a second; rides keep the version they were priced
   * with. A cited what-if replay must have finished; its figures are kept in the audit entry beside the rules.
   */
  async update(actor: Actor, { whatIfId, ...rules }: SavePricingBody): Promise<PricingVersion> {
    const whatIf = whatIfId === undefined ? undefined : this.#whatIf.citation(whatIfId, rules);
    try {
      return await this.#transactions.run(async (tx) => {
        const made = await this.#pricing.create(tx, rules, actor.id);
        // Versions are numbered one after the other, so the one replaced is the one before; it may
        // have been made a moment ago in the same batch of writes, so it is read within this one.
        const before = (await this.#pricing.versionIn(tx, made.version - 1))!;
        await this.#audit.record(tx, { actor, action: 'pricing.update', target: { type: 'pricing', id: made.version }, before: rulesOf(before), after: whatIf ? { ...rulesOf(made), whatIf } : rulesOf(made) });
        return made;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Another operator saved prices at the same moment; read them again and retry', 'PRICING_CHANGED');
      throw error;
    }
  }
}
