// Row type of the drivers module's documents table: database.ts's Database extends it (kept here so
// that file stays within its length).

/** A driver's document of one kind (the latest upload), the file included. */
export interface DriverDocumentsTable {
  driver_id: number;
  kind: string;
  content_type: string;
  size: number;
  data: Uint8Array;
  expires_on: string;
  expires_at: number;
  registered_on: string | null;
  status: string;
  reason: string | null;
  uploaded_at: number;
  reviewed_at: number | null;
  reviewed_by: number | null;
  notice_sent_at: number | null;
  expiry_seen_at: number | null;
}

export interface DriverDocumentTables {
  driver_documents: DriverDocumentsTable;
}
