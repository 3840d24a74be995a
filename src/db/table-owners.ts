import type { Database } from './database.ts';

// One owner per table: only the owning module's code (src/modules/<owner>/) queries it; every other
// module asks the owner's service. test/architecture/table-ownership.test.ts holds the code to this
// map, with its few named exceptions (docs/architecture.md lists them with their reasons).

/** Who owns each table: a module of src/modules/, or `platform` for a cross-cutting piece of src/platform/. */
export type TableOwner = 'admin' | 'auth' | 'complaints' | 'dispatch' | 'drivers' | 'insights' | 'notifications' | 'payments' | 'platform' | 'pricing' | 'push' | 'replay' | 'rides' | 'safety' | 'settings';

export const tableOwners = {
  users: 'auth',
  signup_otps: 'auth',
  refresh_tokens: 'auth',
  user_settings: 'settings',
  notifications: 'notifications',
  rides: 'rides',
  destination_quotes: 'rides',
  driver_presence: 'drivers',
  driver_profiles: 'drivers',
  driver_documents: 'drivers',
  /** The demand statistics behind insights' forecasts, fed by ride.booked and ride.moved (insights.module.ts). */
  demand_buckets: 'insights',
  /** Learned travel times, fed by completed rides (ride.moved, insights.module.ts); pricing's quotes ask insights for them. */
  travel_time_cells: 'insights',
  /** The straight router's detour factor learned per zone, fed by completed rides with the travel times. */
  detour_cells: 'insights',
  /** Samples of driver supply for what-if replays, taken every 30 s by one instance (replay.module.ts). */
  supply_samples: 'replay',
  offers: 'dispatch',
  pricing_versions: 'pricing',
  payment_sessions: 'payments',
  webhook_events: 'payments',
  refunds: 'payments',
  audit_log: 'admin',
  complaints: 'complaints',
  trip_shares: 'safety',
  incidents: 'safety',
  incident_notes: 'safety',
  incident_track: 'safety',
  account_phones: 'safety',
  /** Browsers' Web Push subscriptions; pruned when a push service says one is gone (push.module.ts). */
  push_subscriptions: 'push',
  /** platform/idempotency.ts: the stored answers of retried requests. */
  idempotency_keys: 'platform',
} as const satisfies Record<keyof Database, TableOwner>;
