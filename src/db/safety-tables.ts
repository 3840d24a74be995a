import type { Generated } from 'kysely';

// Row types of the safety module's tables (database.ts lists them with every other table; kept
// here so that file stays within its length).

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
