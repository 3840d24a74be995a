// A what-if replay's own thread (what-if.service.ts starts it), so the service keeps serving while a
// week is replayed: the period as it ran, then with the candidate settings, through the router ROUTING
// chose (without the learned corrections the service holds in its memory). The drivers the samples
// hold are read here too (a week of samples takes some 30 s to inflate); the service answers with
// their vehicles, from its database.
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { PickupWays } from '../dispatch/pickup-ways.ts';
import { Metrics } from '../../platform/metrics.ts';
import { createRouter } from '../../platform/routing/create-router.ts';
import type { RoutingConfig } from '../../platform/routing/routing-config.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import { replayPeriod, type ReplayInputs, type ReplaySettings } from './replay-engine.ts';
import { driverIdsOf } from './supply-samples.ts';

export interface WhatIfWork {
  inputs: Omit<ReplayInputs, 'vehicles'>;
  runs: [ReplaySettings, ReplaySettings];
  routing: RoutingConfig;
}

/** From the thread: the drivers the samples hold (answered with `WhatIfVehicles`), progress, the results. */
export type WhatIfMessage = { type: 'drivers'; driverIds: number[] } | { type: 'progress'; done: number } | { type: 'done'; hours: Awaited<ReturnType<typeof replayPeriod>>[] };
/** To the thread: the vehicle of each of those drivers dispatch may offer rides to. */
export interface WhatIfVehicles {
  vehicles: Map<number, VehicleType>;
}

const work = workerData as WhatIfWork;
const driverIds = new Set<number>();
for (const sample of work.inputs.samples) for (const driverId of driverIdsOf(sample.packed)) driverIds.add(driverId);
parentPort!.postMessage({ type: 'drivers', driverIds: [...driverIds] } satisfies WhatIfMessage);
const [{ vehicles }] = (await once(parentPort!, 'message')) as [WhatIfVehicles];
const inputs: ReplayInputs = { ...work.inputs, vehicles };
const router = createRouter(work.routing, { metrics: new Metrics(() => {}), log: pino({ level: 'silent' }) });
const ways = new PickupWays({ router });
const results = [];
for (const [i, settings] of work.runs.entries()) {
  results.push(await replayPeriod(inputs, settings, { router, ways, progress: (done) => parentPort!.postMessage({ type: 'progress', done: (i + done) / work.runs.length } satisfies WhatIfMessage) }));
}
parentPort!.postMessage({ type: 'done', hours: results } satisfies WhatIfMessage);
