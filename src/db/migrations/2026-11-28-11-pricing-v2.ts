import type { Kysely } from 'kysely';

// Frozen once released. Pricing documents become version 2 of the fare policy (decisions.md "Fare
// policy"): each stored document keeps meaning exactly what it meant. Its base covers no kilometres,
// waiting after the pickup's free minutes costs nothing, the night multiplier is 1, there are no
// stops, tolls or parking to pass through and no driver penalty; the surge floor is 1 (quotes never
// went below 1×) and the driver's share the default 0.8 (a share decides earnings, not fares).

interface Stored {
  version: number;
  rules: string;
}

type Document = Record<string, unknown> & { fares?: Record<string, Record<string, unknown>> };

const upgradeRate = (rate: Record<string, unknown>) => ({
  ...rate,
  baseKm: 0,
  waiting: { freeMinutes: 3, perMinute: 0 },
  night: { start: '23:00', end: '05:00', multiplier: 1 },
  perStop: 0,
});

function upgrade(document: Document): Document {
  return {
    ...document,
    fares: Object.fromEntries(Object.entries(document.fares ?? {}).map(([type, rate]) => [type, upgradeRate(rate)])),
    surgeFloor: 1,
    driverShare: 0.8,
    tollsAndParking: { capPerRide: 0 },
    driverCancellation: { share: 0, min: 0, max: 0 },
    validCancellationReasons: [],
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const typed = db as Kysely<{ pricing_versions: Stored }>;
  const stored = await typed.selectFrom('pricing_versions').select(['version', 'rules']).execute();
  for (const row of stored) {
    const document = JSON.parse(row.rules) as Document;
    if ('surgeFloor' in document) continue;
    await typed.updateTable('pricing_versions').set({ rules: JSON.stringify(upgrade(document)) }).where('version', '=', row.version).execute();
  }
}
