import type { Generated, Kysely, Transaction } from 'kysely';
import type { DriverDocumentTables } from './driver-document-tables.ts';
import type { LearnedRoutingTables } from './learned-routing-tables.ts';
import type { PlatformTables } from './platform-tables.ts';
import type { PushTables } from './push-tables.ts';
import type { ReplayTables } from './replay-tables.ts';
import type { SafetyTables } from './safety-tables.ts';
import type { RideScheduleColumns } from './ride-schedule-columns.ts';
import type { RideTables, RideTripColumns } from './ride-trip-columns.ts';

// Row types of every table; times are epoch ms and flags 0/1, so queries run alike on SQLite and PostgreSQL. Owners: table-owners.ts.

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  role: string;
  created_at: number;
  updated_at: number;
  /** active, blocked or deleted (erased: the row stays, anonymised, so its id is never reused). */
  status: Generated<string>;
  status_reason: string | null;
  status_changed_at: number | null;
  /** Tokens carrying a lower version no longer work; raised by role, password and status changes. */
  token_version: Generated<number>;
  tokens_changed_at: number | null;
  /** `signup` (ADMIN only through ADMIN_EMAILS) or `operator` (given by an operator). */
  role_source: Generated<string>;
}

export interface SignupOtpsTable {
  email: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  sent_at: number;
}

export interface RefreshTokensTable {
  jti: string;
  family_id: string;
  user_id: number;
  role: string;
  expires_at: number;
  created_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface UserSettingsTable {
  id: Generated<number>;
  user_id: number;
  trip_sharing_default: number;
  hide_phone_number: number;
  emergency_contact: string;
  default_payment_method: string;
  auto_tip_enabled: number;
  invoice_email_enabled: number;
  map_style: string;
  avoid_tolls: number;
  avoid_highways: number;
  navigation_voice_language: string;
  preferred_vehicle_type: string;
  ac_preference: string;
  quiet_ride: number;
  delete_account_requested: number;
  /** When the user asked (epoch ms); null while no request is open. */
  delete_account_requested_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  ride_id: number | null;
  title: string;
  message: string;
  channel: string;
  event_type: string;
  read: number;
  status: string;
  created_at: number;
  delivered_at: number | null;
}

export interface RidesTable extends RideTripColumns, RideScheduleColumns {
  id: Generated<number>;
  rider_id: number;
  driver_id: number | null;
  status: string;
  ride_type: string;
  pickup_location: string | null;
  drop_location: string | null;
  pickup_lat: number | null;
  pickup_lon: number | null;
  drop_lat: number | null;
  drop_lon: number | null;
  pickup_plus_code: string | null;
  drop_plus_code: string | null;
  pickup_landmark: string | null;
  drop_landmark: string | null;
  distance_km: number;
  duration_minutes: number;
  surge_multiplier: number;
  fare: number;
  payment_mode: string;
  payment_status: string;
  payment_reference: string | null;
  start_otp: string;
  end_otp: string;
  created_at: number;
  accepted_at: number | null;
  picked_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  driver_lat: number | null;
  driver_lon: number | null;
  driver_location_updated_at: number | null;
  arriving_notified_at: number | null;
  cancellation_reason: string | null;
  cancelled_by: string | null;
  cancellation_fee: number | null;
  rider_rating: number | null;
  rider_feedback: string | null;
  driver_rating: number | null;
  driver_feedback: string | null;
  /** Which of the rider's open-ride slots the ride holds while it is open. */
  open_slot: number | null;
  /** The H3 zone of the pickup point (zones and surge). */
  pickup_zone: string | null;
  /** What dispatch learned: the first offer, how many offers, the pickup distance at acceptance, when no driver was found. */
  first_offer_at: number | null;
  offer_count: number | null;
  pickup_distance_km: number | null;
  no_driver_at: number | null;
  /** The pricing rules the ride was priced with (pricing_versions). */
  pricing_version: Generated<number>;
  /** Rupees refunded (or being refunded) through the provider. */
  refunded_amount: Generated<number>;
}

export interface PricingVersionsTable {
  version: number;
  /** JSON of the rules (fares per type, surge cap, cancellation rule). */
  rules: string;
  created_at: number;
  created_by: number | null;
}

export interface DriverPresenceTable {
  driver_id: number;
  lat: number;
  lon: number;
  updated_at: number;
  online: Generated<number>;
}

export interface DriverProfilesTable {
  driver_id: number;
  vehicle_type: string;
  vehicle_number: string;
  vehicle_model: string | null;
  ac_available: number;
  approval: Generated<string>;
  approval_reason: string | null;
  approval_changed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface OffersTable {
  id: Generated<number>;
  ride_id: number;
  driver_id: number;
  status: string;
  ride_type: string;
  fare: number;
  pickup_location: string | null;
  drop_location: string | null;
  pickup_lat: number;
  pickup_lon: number;
  drop_lat: number | null;
  drop_lon: number | null;
  pickup_distance_km: number;
  pickup_eta_minutes: number;
  created_at: number;
  expires_at: number;
  answered_at: number | null;
  decline_reason: string | null;
}

export interface DemandBucketsTable {
  bucket_start: number;
  rides: number;
  riders: number;
  accepted: number;
  accept_delay_ms: number;
}

export interface PaymentSessionsTable {
  id: string;
  user_id: number;
  ride_id: number | null;
  order_id: string;
  receipt: string;
  amount: number;
  currency: string;
  payment_mode: string | null;
  ride_summary: string | null;
  status: string;
  payment_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface RefundsTable {
  id: Generated<number>;
  ride_id: number;
  session_id: string;
  /** The provider's payment the refund goes back to. */
  payment_id: string;
  amount: number; // paise
  reason: string;
  note: string | null;
  requested_by: number | null;
  status: string;
  idempotency_key: string;
  provider_refund_id: string | null;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookEventsTable {
  event_id: string;
  event_type: string;
  received_at: number;
}

export interface ComplaintsTable {
  id: Generated<number>;
  ride_id: number;
  filed_by: number;
  /** The complainant's part in the ride: rider or driver. */
  party: string;
  category: string;
  message: string;
  /** open or resolved. */
  status: string;
  resolution: string | null;
  resolved_by: number | null;
  resolved_at: number | null;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  request_id: string | null;
  /** The X-Request-Id the client sent, kept apart from ours: a client may send any. */
  client_request_id: string | null;
  created_at: number;
}

export interface Database extends SafetyTables, LearnedRoutingTables, ReplayTables, PlatformTables, RideTables, DriverDocumentTables, PushTables {
  users: UsersTable;
  signup_otps: SignupOtpsTable;
  refresh_tokens: RefreshTokensTable;
  user_settings: UserSettingsTable;
  notifications: NotificationsTable;
  rides: RidesTable;
  driver_presence: DriverPresenceTable;
  demand_buckets: DemandBucketsTable;
  driver_profiles: DriverProfilesTable;
  offers: OffersTable;
  pricing_versions: PricingVersionsTable;
  payment_sessions: PaymentSessionsTable;
  webhook_events: WebhookEventsTable;
  refunds: RefundsTable;
  audit_log: AuditLogTable;
  complaints: ComplaintsTable;
}

/** Ids are integer columns on both databases: a larger id names nothing, and is never sent to a query. */
export const MAX_ID = 2_147_483_647;

/** A handle to read with: the service's reader, or a unit's transaction (to read its own writes). */
export type Db = Kysely<Database>;
/** The handle every write takes: only a unit of work (db/transaction.ts) has one. */
export type WriteDb = Transaction<Database>;
