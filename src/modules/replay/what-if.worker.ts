// A what-if replay's own thread (what-if.service.ts starts it), so the service keeps serving while a
// week is replayed: the period as it ran, then with the candidate settings, through the router ROUTING
// chose (without the learned corrections the service holds in its memory).
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { PickupWays } from '../dispatch/pickup-ways.ts';
import { Metrics } from '../../platform/metrics.ts';
import { createRouter } from '../../platform/routing/create-router.ts';
import type { RoutingConfig } from '../../platform/routing/routing-config.ts';
import { replayPeriod, type ReplayInputs, type ReplaySettings } from './replay-engine.ts';

export interface WhatIfWork {
  inputs: ReplayInputs;
  runs: [ReplaySettings, ReplaySettings];
  routing: RoutingConfig;
}

export type WhatIfMessage = { type: 'progress'; done: number } | { type: 'done'; hours: Awaited<ReturnType<typeof replayPeriod>>[] };

const work = workerData as WhatIfWork;
const router = createRouter(work.routing, { metrics: new Metrics(() => {}), log: pino({ level: 'silent' }) });
const ways = new PickupWays({ router });
const results = [];
for (const [i, settings] of work.runs.entries()) {
  results.push(await replayPeriod(work.inputs, settings, { router, ways, progress: (done) => parentPort!.postMessage({ type: 'progress', done: (i + done) / work.runs.length } satisfies WhatIfMessage) }));
}
parentPort!.postMessage({ type: 'done', hours: results } satisfies WhatIfMessage);
