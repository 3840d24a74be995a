// Tables of cross-cutting pieces of src/platform/ (owner `platform` in table-owners.ts); each migration says what its columns hold.

export interface PlatformTables {
  /** Owned by platform/idempotency.ts. */
  idempotency_keys: { user_id: number; idempotency_key: string; request_hash: string; status_code: number | null; response: string | null; created_at: number };
}
