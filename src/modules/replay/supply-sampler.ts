import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transaction.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { RideDispatch } from '../rides/ride-dispatch.service.ts';
import * as repository from './supply-samples.repository.ts';
import { SUPPLY_PERIOD_MAX_DAYS, type SupplyHistory, type SupplyQuery } from './replay.schemas.ts';
import { packOnline, sampleSlotMs } from './supply-samples.ts';

const DAY_MS = 86_400_000;

export interface SupplySamplerDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  drivers: Pick<DriversService, 'online'>;
  rides: Pick<RideDispatch, 'busyDrivers'>;
  retentionDays: number;
  log: { warn(details: object, message: string): void };
  /** SIMULATION_SPEED: a simulated city's 30 s pass this many times faster (1 but in simulations). */
  simulationSpeed?: number;
}

/**
 * Driver supply for what-if replays (decisions.md "What-if replay"): every 30-second slot, one
 * instance stores each online driver's position and whether a ride holds them. Every instance tries;
 * the slot's key lets the first write win, so several instances store one sample and a restart loses
 * at most the slot it was in. Samples older than REPLAY_RETENTION_DAYS are dropped as new ones come.
 */
export class SupplySampler {
  readonly #deps: SupplySamplerDependencies;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();
  readonly #slotMs: number;

  constructor(deps: SupplySamplerDependencies) {
    this.#deps = deps;
    this.#slotMs = sampleSlotMs(deps.simulationSpeed);
  }

  /** Samples every `intervalMs` of real time (tests pass less and move the clock); the slot comes from the clock. */
  start(intervalMs = this.#slotMs): void {
    this.#timer = setInterval(() => {
      this.#running = this.sample().catch((error: unknown) => this.#deps.log.warn({ err: error }, 'supply sample not taken'));
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Takes the current slot's sample unless one is stored; true when this call stored it. */
  async sample(): Promise<boolean> {
    const now = this.#deps.clock.now();
    const at = now - (now % this.#slotMs);
    // Every instance tries every slot: one that another has taken costs a key lookup, not a read of every driver.
    if (await repository.sampleTaken(this.#deps.db, at)) return false;
    const [online, busy] = await Promise.all([this.#deps.drivers.online(), this.#deps.rides.busyDrivers()]);
    let busyOnline = 0;
    for (const driverId of online.driverIds) if (busy.has(driverId)) busyOnline++;
    const row = { at, online: online.driverIds.length, busy: busyOnline, drivers: await packOnline(online, busy) };
    return this.#deps.transactions.run(async (tx) => {
      const stored = await repository.insertSample(tx.db, row);
      if (stored) await repository.deleteSamplesBefore(tx.db, at - this.#deps.retentionDays * DAY_MS);
      return stored;
    });
  }

  /** GET /admin/supply: online and busy drivers per sample of the period. */
  async history({ from, to }: SupplyQuery): Promise<SupplyHistory> {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!(end > start)) throw badRequest('from must be before to');
    if (end - start > SUPPLY_PERIOD_MAX_DAYS * DAY_MS) throw badRequest(`A period is at most ${SUPPLY_PERIOD_MAX_DAYS} days`);
    const rows = await repository.sampleCounts(this.#deps.db, start, end, Math.ceil((end - start) / this.#slotMs) + 1);
    return {
      from: new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      sampleSeconds: this.#slotMs / 1000,
      retentionDays: this.#deps.retentionDays,
      samples: rows.map((row) => ({ at: new Date(row.at).toISOString(), online: row.online, busy: row.busy })),
    };
  }

  /** The period's samples, oldest first, packed as stored (unpackSample): what a replay starts from. */
  async samplesBetween(from: number, to: number): Promise<Array<{ at: number; online: number; packed: string }>> {
    const rows = await repository.samplesBetween(this.#deps.db, from, to);
    return rows.map((row) => ({ at: Number(row.at), online: row.online, packed: row.drivers }));
  }
}
