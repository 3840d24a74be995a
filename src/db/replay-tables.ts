// The replay module's tables (owner in table-owners.ts); the migration says what each column holds.

export interface ReplayTables {
  /** One row per 30-second slot: online and busy driver counts, and every online driver packed (replay/supply-samples.ts). */
  supply_samples: { at: number; online: number; busy: number; drivers: string };
}
