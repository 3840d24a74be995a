import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../../platform/clock.ts';
import { toIso } from '../../platform/clock.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { RoutingConfig } from '../../platform/routing/routing-config.ts';
import type { DispatchMode } from '../../platform/vocabulary.ts';
import type { OffersService } from '../dispatch/offers.service.ts';
import type { DriverProfiles } from '../drivers/driver-profiles.service.ts';
import { checkRules } from '../pricing/pricing.model.ts';
import type { PricingRules } from '../pricing/pricing.schemas.ts';
import type { Pricing } from '../pricing/pricing.service.ts';
import type { RideStats } from '../rides/ride-stats.service.ts';
import { acceptedEtas, fitBehaviour } from './behaviour.ts';
import { FIT_SAMPLE_LIMIT } from './behaviour.service.ts';
import type { ReplayRequest, ReplaySettings } from './replay-engine.ts';
import { actualHours, periodFigures, type HourFigures } from './replay-figures.ts';
import { SUPPLY_PERIOD_MAX_DAYS } from './replay.schemas.ts';
import type { SupplySampler } from './supply-sampler.ts';
import { sampleSlotMs } from './supply-samples.ts';
import type { WhatIfBody, WhatIfDispatch, WhatIfJob } from './what-if.schemas.ts';
import type { WhatIfMessage, WhatIfVehicles, WhatIfWork } from './what-if.worker.ts';

/** The most requests one replay takes: a week of a 2,000-driver city is some 100,000. */
export const WHAT_IF_MAX_REQUESTS = 500_000;
/** Jobs kept to be read after they end (newest first out). */
const JOBS_KEPT = 10;
const DAY_MS = 86_400_000;

export interface WhatIfDependencies {
  rides: Pick<RideStats, 'requestsBetween'>;
  offers: Pick<OffersService, 'answeredBetween'>;
  supply: Pick<SupplySampler, 'samplesBetween'>;
  profiles: Pick<DriverProfiles, 'dispatchable'>;
  pricing: Pick<Pricing, 'rules' | 'current'>;
  dispatch: { mode: DispatchMode; batchMs: number; offerTtlMs: number; maxMs: number };
  routing: RoutingConfig;
  timeZone: string;
  clock: Clock;
  /** SIMULATION_SPEED: a simulated city's trips are replayed in its time (1 but in simulations). */
  simulationSpeed?: number;
}

interface Job {
  view: WhatIfJob;
  /** The candidate pricing document tried, if one was. */
  pricing: PricingRules | undefined;
}

/** What a pricing version's audit entry keeps of the replay it cites. */
export interface WhatIfCitation {
  id: string;
  from: string;
  to: string;
  /** Whether the candidate replayed was the very document saved, another one, or the version in force (a dispatch-only replay). */
  candidatePricing: 'this version' | 'other rules' | 'as was';
  candidateDispatch: WhatIfDispatch;
  totals: NonNullable<WhatIfJob['totals']>;
}

/**
 * What-if replays (decisions.md "What-if replay"): a period's requests and driver supply replayed as
 * it ran and with candidate settings, in a worker thread so the service keeps serving; one at a
 * time per instance. Jobs live in this instance's memory: GET them from the instance that started them.
 */
export class WhatIf {
  readonly #deps: WhatIfDependencies;
  readonly #jobs = new Map<string, Job>();
  #running: string | undefined;

  constructor(deps: WhatIfDependencies) {
    this.#deps = deps;
  }

  async start(body: WhatIfBody): Promise<WhatIfJob> {
    if (this.#running) throw conflict(`What-if replay ${this.#running} is still running; one at a time`, 'WHAT_IF_RUNNING');
    const from = Date.parse(body.from);
    const to = Date.parse(body.to);
    if (!(to > from)) throw badRequest('from must be before to');
    if (to - from > SUPPLY_PERIOD_MAX_DAYS * DAY_MS) throw badRequest(`A period is at most ${SUPPLY_PERIOD_MAX_DAYS} days`);
    if (body.pricing) {
      const problems = checkRules(body.pricing);
      if (problems.length > 0) throw badRequest(`The candidate pricing is not valid: ${problems.join('; ')}`);
    }
    const id = randomUUID();
    this.#running = id;
    try {
      return await this.#launch(id, from, to, body);
    } catch (error) {
      this.#running = undefined;
      throw error;
    }
  }

  get(id: string): WhatIfJob {
    const job = this.#jobs.get(id);
    if (!job) throw notFound(`What-if replay ${id} not found (jobs are kept by the instance that ran them, the last ${JOBS_KEPT})`);
    return job.view;
  }

  /** A finished replay as a saved version cites it; an unknown or unfinished one is a 400 (the save is refused). */
  citation(id: string, rules: PricingRules): WhatIfCitation {
    const job = this.#jobs.get(id);
    if (!job) throw badRequest(`What-if replay ${id} is not known here (jobs are kept by the instance that ran them, the last ${JOBS_KEPT})`, 'WHAT_IF_NOT_FOUND');
    const { view } = job;
    if (view.status !== 'done' || !view.totals) throw badRequest(`What-if replay ${id} has not finished (${view.status}); cite it once it is done`, 'WHAT_IF_NOT_DONE');
    const candidatePricing = job.pricing === undefined ? 'as was' : isDeepStrictEqual(job.pricing, rules) ? 'this version' : 'other rules';
    return { id, from: view.from, to: view.to, candidatePricing, candidateDispatch: view.inputs.candidateDispatch, totals: view.totals };
  }

  async #launch(id: string, from: number, to: number, body: WhatIfBody): Promise<WhatIfJob> {
    const [requests, offers, samples] = await Promise.all([
      this.#deps.rides.requestsBetween(from, to, WHAT_IF_MAX_REQUESTS + 1),
      this.#deps.offers.answeredBetween(from, to, FIT_SAMPLE_LIMIT),
      this.#deps.supply.samplesBetween(from, to),
    ]);
    if (requests.length > WHAT_IF_MAX_REQUESTS) throw badRequest(`The period has more than ${WHAT_IF_MAX_REQUESTS} requests; replay a shorter one`);
    requests.reverse(); // oldest first
    const replayed: ReplayRequest[] = requests.flatMap((r) => (r.pickup && r.drop ? [{ id: r.id, riderId: r.riderId, at: r.at, rideType: r.rideType, pickup: r.pickup, drop: r.drop }] : []));
    const speed = this.#deps.simulationSpeed ?? 1;
    const etas = acceptedEtas(offers);
    const { acceptance, answers, cancellation, tripTimes } = fitBehaviour(offers, requests.slice(-FIT_SAMPLE_LIMIT), speed);
    const asWasVersion = mostUsed(requests.map((r) => r.pricingVersion)) ?? this.#deps.pricing.current().version;
    const asWasRules = await this.#deps.pricing.rules(asWasVersion);
    const asWasDispatch = { mode: this.#deps.dispatch.mode === 'batched' ? 'batched' : 'nearest', batchMs: this.#deps.dispatch.batchMs, offerTtlMs: this.#deps.dispatch.offerTtlMs, maxMs: this.#deps.dispatch.maxMs } as const;
    const candidateDispatch = {
      mode: body.dispatch?.mode ?? asWasDispatch.mode,
      batchMs: body.dispatch?.batchMs ?? asWasDispatch.batchMs,
      offerTtlMs: (body.dispatch?.offerTtlSeconds ?? asWasDispatch.offerTtlMs / 1000) * 1000,
      maxMs: (body.dispatch?.maxSeconds ?? asWasDispatch.maxMs / 1000) * 1000,
    };
    const seed = hashOf(id);
    const common = { timeZone: this.#deps.timeZone, seed, speed };
    const runs: [ReplaySettings, ReplaySettings] = [
      { ...common, dispatch: asWasDispatch, rules: asWasRules, pricingVersion: asWasVersion },
      { ...common, dispatch: candidateDispatch, rules: body.pricing ?? asWasRules, pricingVersion: body.pricing ? 0 : asWasVersion },
    ];
    const actual = actualHours(from, to, requests.map((r) => ({ ...r, pickupEtaMinutes: etas.get(r.id) ?? null })), samples.map((s) => ({ at: s.at, drivers: s.online })), asWasRules.driverShare, sampleSlotMs(speed));
    const view: WhatIfJob = {
      id,
      status: 'running',
      from: toIso(from),
      to: toIso(to),
      progress: 0,
      startedAt: toIso(this.#deps.clock.now()),
      finishedAt: null,
      error: null,
      inputs: {
        requests: replayed.length,
        samples: samples.length,
        asWasPricingVersion: asWasVersion,
        asWasDispatch: settingsView(asWasDispatch),
        candidateDispatch: settingsView(candidateDispatch),
        candidatePricing: body.pricing !== undefined,
        acceptance: { offers: acceptance.offers, intercept: acceptance.intercept, perKm: acceptance.perKm, perHundredRupees: acceptance.perHundredRupees },
        cancellation: { requests: cancellation.requests, perMinute: cancellation.perMinute },
        answers: { accepted: answers.accepted, acceptSeconds: seconds(answers.acceptMeanMs), refused: answers.refused, refuseSeconds: seconds(answers.refuseMeanMs) },
        tripTimes: { rides: tripTimes.rides, factor: Math.round(tripTimes.factor * 1000) / 1000 },
      },
      totals: null,
      hours: [],
    };
    this.#keep(id, { view, pricing: body.pricing });
    const inputs: WhatIfWork['inputs'] = { from, to, requests: replayed, samples: samples.map(({ at, packed }) => ({ at, packed })), behaviour: { acceptance, cancellation, answers, tripTimes } };
    const work: WhatIfWork = { inputs, runs, routing: this.#deps.routing };
    const worker = new Worker(new URL('./what-if.worker.ts', import.meta.url), { workerData: work });
    worker.on('message', (message: WhatIfMessage) => {
      if (message.type === 'drivers') {
        this.#deps.profiles.dispatchable(message.driverIds).then(
          (vehicles) => worker.postMessage({ vehicles } satisfies WhatIfVehicles),
          (error: unknown) => {
            this.#fail(view, error instanceof Error ? error : new Error(String(error)));
            void worker.terminate();
          },
        );
      } else if (message.type === 'progress') view.progress = Math.round(message.done * 1000) / 1000;
      else this.#finish(view, actual, message.hours[0], message.hours[1]);
    });
    worker.on('error', (error: Error) => this.#fail(view, error));
    worker.on('exit', (code) => {
      if (view.status === 'running') this.#fail(view, new Error(`the replay's thread ended (${code}) before its results`));
    });
    return view;
  }

  #finish(view: WhatIfJob, actual: HourFigures[], asWas: HourFigures[], candidate: HourFigures[]): void {
    view.hours = actual.map((hour, i) => ({ hour: toIso(hour.hour), actual: periodFigures([hour]), asWas: periodFigures([asWas[i]]), candidate: periodFigures([candidate[i]]) }));
    view.totals = { actual: periodFigures(actual), asWas: periodFigures(asWas), candidate: periodFigures(candidate) };
    view.progress = 1;
    view.status = 'done';
    view.finishedAt = toIso(this.#deps.clock.now());
    this.#running = undefined;
  }

  #fail(view: WhatIfJob, error: Error): void {
    view.status = 'failed';
    view.error = error.message;
    view.finishedAt = toIso(this.#deps.clock.now());
    this.#running = undefined;
  }

  #keep(id: string, job: Job): void {
    this.#jobs.set(id, job);
    for (const old of this.#jobs.keys()) if (this.#jobs.size > JOBS_KEPT) this.#jobs.delete(old);
  }
}

const settingsView = (settings: { mode: 'nearest' | 'batched'; batchMs: number; offerTtlMs: number; maxMs: number }): WhatIfDispatch => ({
  mode: settings.mode,
  batchMs: settings.batchMs,
  offerTtlSeconds: Math.round(settings.offerTtlMs / 1000),
  maxSeconds: Math.round(settings.maxMs / 1000),
});

const seconds = (ms: number) => Math.round(ms) / 1000;

function mostUsed(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** A job's seed from its id: two jobs draw differently, one job the same for both of its runs. */
const hashOf = (id: string) => [...id].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0, 7);
