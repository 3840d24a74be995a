import type { WebAppSettings } from '../../src/contract/types.ts';

export type { WebAppSettings };

const FALLBACK: WebAppSettings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };

/** The service's settings for the apps (/app/config.json), read once at start; without them maps show no tiles and online payment is off. */
export async function loadSettings(): Promise<WebAppSettings> {
  try {
    const response = await fetch('/app/config.json');
    return response.ok ? ((await response.json()) as WebAppSettings) : FALLBACK;
  } catch {
    return FALLBACK;
  }
}
