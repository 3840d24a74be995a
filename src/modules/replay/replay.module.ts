import { BehaviourFits, type BehaviourDependencies } from './behaviour.service.ts';
import { SupplySampler, type SupplySamplerDependencies } from './supply-sampler.ts';
import { WhatIf, type WhatIfDependencies } from './what-if.service.ts';

export interface ReplayServices {
  /** Driver supply every 30 s (supply_samples), kept REPLAY_RETENTION_DAYS. */
  supply: SupplySampler;
  /** Drivers' acceptance and answer times, riders' patience and trips' length, fitted from a period. */
  behaviour: BehaviourFits;
  /** Replays of a period with candidate settings, in a worker thread. */
  whatIf: WhatIf;
}

/**
 * What-if replays (decisions.md "What-if replay"). What they need of the past: ride requests are the
 * rides module's and offers dispatch's (riders' patience and drivers' acceptance are fitted to them);
 * the driver supply of each 30-second slot is sampled here. The module reacts to no
 * event: supply is read as it stands at each slot, not rebuilt from every position.
 */
export function createReplay(deps: SupplySamplerDependencies & { behaviour: BehaviourDependencies; whatIf: Omit<WhatIfDependencies, 'supply' | 'rides' | 'offers' | 'clock'> }): ReplayServices {
  const supply = new SupplySampler(deps);
  return { supply, behaviour: new BehaviourFits({ ...deps.behaviour, simulationSpeed: deps.simulationSpeed }), whatIf: new WhatIf({ ...deps.behaviour, ...deps.whatIf, supply, clock: deps.clock }) };
}
