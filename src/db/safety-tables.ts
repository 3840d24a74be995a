import type { Generated } from 'kysely';

// Row types of the safety module's tables: database.ts's Database extends SafetyTables (kept here
// so that file stays within its length).

/** Trip-sharing links; the token itself is never stored, only its SHA-256. */
export interface TripSharesTable {
  id: Generated<number>;
  ride_id: number;
  token_hash: string;
  created_by: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** An SOS and what operators did with it. */
export interface IncidentsTable {
  id: Generated<number>;
  ride_id: number;
  reporter_id: number;
  party: string;
  driver_id: number | null;
  status: string;
  /** The ride's id until the incident is resolved (unique: one unresolved incident per ride). */
  open_ride_id: number | null;
  created_at: number;
  acknowledged_at: number | null;
  acknowledged_by: number | null;
  resolved_at: number | null;
  resolved_by: number | null;
}

export interface IncidentNotesTable {
  id: Generated<number>;
  incident_id: number;
  author_id: number;
  text: string;
  created_at: number;
}

/** The driver's positions from the SOS on. */
export interface IncidentTrackTable {
  incident_id: number;
  lat: number;
  lon: number;
  at: number;
}

/** An account's verified phone, and a number waiting for its SMS code (only the code's HMAC is kept). */
export interface AccountPhonesTable {
  user_id: number;
  phone: string | null;
  verified_at: number | null;
  pending_phone: string | null;
  code_hash: string | null;
  code_expires_at: number | null;
  code_attempts: Generated<number>;
  code_sent_at: number | null;
}

export interface SafetyTables {
  trip_shares: TripSharesTable;
  incidents: IncidentsTable;
  incident_notes: IncidentNotesTable;
  incident_track: IncidentTrackTable;
  account_phones: AccountPhonesTable;
}
