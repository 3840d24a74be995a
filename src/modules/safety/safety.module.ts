import { TripShares, type TripSharesDependencies } from './trip-shares.service.ts';

/** The safety module's services: trip-sharing links. */
export interface SafetyServices {
  shares: TripShares;
}

export function createSafety(deps: TripSharesDependencies): SafetyServices {
  return { shares: new TripShares(deps) };
}
