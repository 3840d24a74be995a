/** Current time in epoch milliseconds; tests pass their own to move time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const toIso = (epochMs: number): string => new Date(epochMs).toISOString();
export const toIsoOrNull = (epochMs: number | null): string | null => (epochMs === null ? null : toIso(epochMs));
