import { neighboursOf } from '../../platform/geo/zones.ts';
import { surgeFor } from './insights.model.ts';

/** A zone's neighbours count this much of their demand and supply towards it (smoothing across zone edges). */
export const NEIGHBOUR_WEIGHT = 0.5;

export interface ZoneCounts {
  /** Distinct riders waiting for a driver with a pickup in the zone. */
  demand: number;
  /** Available drivers in the zone. */
  supply: number;
}

export interface ZoneSurge extends ZoneCounts {
  zone: string;
  pressure: number;
  multiplier: number;
  intensity: ReturnType<typeof surgeFor>['intensity'];
}

/**
 * Surge per zone through the same pressure steps as the city-wide model (capped at 2.0). A zone
 * surges only for demand of its own; its pressure counts half of its neighbours' demand and supply
 * too, so riders and drivers just across a zone edge weigh in. Zones without riders waiting have
 * no surge, however busy the zone next door.
 */
export function zoneSurge(counts: ReadonlyMap<string, ZoneCounts>): ZoneSurge[] {
  const table: ZoneSurge[] = [];
  for (const [zone, own] of counts) {
    if (own.demand === 0) {
      table.push({ zone, ...own, pressure: 0, multiplier: 1, intensity: 'NORMAL' });
      continue;
    }
    let demand = own.demand;
    let supply = own.supply;
    for (const neighbour of neighboursOf(zone)) {
      const near = counts.get(neighbour);
      if (!near) continue;
      demand += NEIGHBOUR_WEIGHT * near.demand;
      supply += NEIGHBOUR_WEIGHT * near.supply;
    }
    const pressure = Math.round((demand / Math.max(1, supply)) * 100) / 100;
    const surge = surgeFor(pressure);
    table.push({ zone, demand: own.demand, supply: own.supply, pressure, multiplier: surge.multiplier, intensity: surge.intensity });
  }
  return table;
}
