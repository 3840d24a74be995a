import type { Ride } from '../api/types.ts';
import type { ApiClient } from '../api/client.ts';

/**
 * The ride an app last showed, kept on the device as it arrives, so that the app still shows it (its
 * codes, the last known positions) when it is opened with the network gone. One per app and user;
 * signing out removes it (ApiClient.deviceKey).
 */
export interface KeptRide<Position> {
  userId: number;
  ride: Ride;
  position: Position | null;
  /** When it was kept (epoch ms). */
  at: number;
}

const KEY = 'last-ride';

export function keptRide<Position>(client: ApiClient): KeptRide<Position> | null {
  const userId = client.session?.userId;
  try {
    const kept = JSON.parse(localStorage.getItem(client.deviceKey(KEY)) ?? 'null') as KeptRide<Position> | null;
    return kept && kept.userId === userId && typeof kept.ride?.id === 'number' ? kept : null;
  } catch {
    return null;
  }
}

export function keepRide<Position>(client: ApiClient, ride: Ride | null, position: Position | null): void {
  const userId = client.session?.userId;
  try {
    if (!ride || userId === undefined) localStorage.removeItem(client.deviceKey(KEY));
    else localStorage.setItem(client.deviceKey(KEY), JSON.stringify({ userId, ride, position, at: Date.now() } satisfies KeptRide<Position>));
  } catch {
    // A full or blocked storage: the app works as before, only not offline.
  }
}
