import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { ServiceBus } from '../../events.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { VEHICLE_AGE_LIMIT_YEARS, versionBreaches } from './compliance.ts';
import { checkRules } from './pricing.model.ts';
import * as repository from './pricing.repository.ts';
import type { PricingRules, PricingVersion } from './pricing.schemas.ts';

/** Every instance looks for a new version this often, so all of them quote it within a second. */
export const PRICING_REFRESH_MS = 1_000;

/**
 * The pricing rules in force and every earlier version (a ride is always explained by the version
 * it was priced with). All versions are kept in memory: quotes read them without waiting.
 */
export class Pricing {
  readonly #db: Db;
  readonly #bus: ServiceBus;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  #versions = new Map<number, repository.StoredVersion>();
  #current = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: { db: Db; bus: ServiceBus; clock: Clock; log: FastifyBaseLogger }) {
    this.#db = deps.db;
    this.#bus = deps.bus;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  async start(): Promise<void> {
    await this.#reload();
    // A new version announces itself on the bus; the poll covers an announcement that got lost.
    await this.#bus.subscribe('pricing.changed', () => void this.#reload().catch(() => undefined));
    this.#timer = setInterval(() => void this.#refresh(), PRICING_REFRESH_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  current(): { version: number; rules: PricingRules } {
    return { version: this.#current, rules: this.#versions.get(this.#current)!.rules };
  }

  /** The oldest a vehicle may be under the compliance profile the current version names (IN-MVAG-2025: 8 years); null without one. */
  vehicleAgeLimitYears(): number | null {
    const profile = this.current().rules.compliance;
    return profile ? VEHICLE_AGE_LIMIT_YEARS[profile] : null;
  }

  /** The rules of a version (a ride's); one made a moment ago on another instance is read on demand. */
  async rules(version: number): Promise<PricingRules> {
    if (!this.#versions.has(version)) await this.#reload();
    const found = this.#versions.get(version);
    if (!found) throw new Error(`pricing version ${version} does not exist`);
    return found.rules;
  }

  /** A version as a unit sees it: one made earlier in the same transaction, not yet in force anywhere, included. */
  async versionIn(tx: Tx, version: number): Promise<PricingVersion | undefined> {
    const stored = await repository.findVersion(tx.db, version);
    return stored && toVersion(stored);
  }

  /** A version as the public sees it (GET /pricing/versions/{v}); an unknown one is 404. */
  async find(version: number): Promise<PricingVersion> {
    if (!this.#versions.has(version)) await this.#reload();
    const found = this.#versions.get(version);
    if (!found) throw notFound(`Pricing version ${version} does not exist`, 'PRICING_VERSION_NOT_FOUND');
    return toVersion(found);
  }

  list(): PricingVersion[] {
    return [...this.#versions.values()].sort((a, b) => b.version - a.version).map(toVersion);
  }

  /** An operator's new version, inside their transaction (with its audit entry); in force everywhere within a second. */
  async create(tx: Tx, rules: PricingRules, createdBy: number): Promise<PricingVersion> {
    const problems = checkRules(rules);
    if (problems.length > 0) throw badRequest(problems.join('; '));
    const breaches = rules.compliance ? versionBreaches(rules.compliance, rules) : [];
    if (breaches.length > 0) {
      throw badRequest(`The version breaks ${rules.compliance}: ${breaches.map(({ rule, problem }) => `${rule} (${problem})`).join('; ')}`, 'COMPLIANCE_VIOLATION');
    }
    const stored = await repository.insertVersion(tx.db, rules, createdBy, this.#clock.now());
    tx.afterCommit(() => {
      this.#keep([stored]);
      void this.#bus.publish('pricing.changed', { version: stored.version }).catch(() => undefined);
    });
    return toVersion(stored);
  }

  async #refresh(): Promise<void> {
    try {
      if ((await repository.latestVersion(this.#db)) > this.#current) await this.#reload();
    } catch (error) {
      this.#log.warn({ err: error }, 'pricing versions not refreshed');
    }
  }

  async #reload(): Promise<void> {
    this.#keep(await repository.allVersions(this.#db));
  }

  #keep(versions: repository.StoredVersion[]): void {
    for (const version of versions) {
      this.#versions.set(version.version, version);
      this.#current = Math.max(this.#current, version.version);
    }
  }
}

// The server's fields last: a stored document can never stand in for them (versions stored before
// bodies were stripped of unknown properties may carry a `version` of their own).
function toVersion(stored: repository.StoredVersion): PricingVersion {
  return { ...stored.rules, version: stored.version, createdAt: toIso(stored.createdAt), createdBy: stored.createdBy };
}
