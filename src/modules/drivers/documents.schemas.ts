import { Type, type Static } from 'typebox';
import { Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';

/** What a driver uploads (decisions.md "Safety", driver documents): one of each, all four needed when DRIVER_DOCUMENTS_REQUIRED. */
export const DOCUMENT_KINDS = ['licence', 'registration', 'insurance', 'permit'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** 5 MB of file: at most this many base64 characters carry it. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
const BASE64_MAX = Math.ceil(DOCUMENT_MAX_BYTES / 3) * 4;

const Day = (description: string) => Type.String({ format: 'date', description });

export const DocumentKindParams = Type.Object({ kind: Type.Enum(DOCUMENT_KINDS) });
export const DriverDocumentParams = Type.Object({ driverId: Type.Integer({ minimum: 1 }), kind: Type.Enum(DOCUMENT_KINDS) });

export const UploadDocumentBody = Type.Object({
  contentType: Type.Enum(DOCUMENT_TYPES, { description: 'What the file is; its first bytes must say the same' }),
  data: Type.String({ minLength: 4, maxLength: BASE64_MAX, pattern: '^[A-Za-z0-9+/]+={0,2}$', description: 'The file in base64, at most 5 MB' }),
  expiresOn: Day('The last day the document is valid'),
  registeredOn: Type.Optional(Day("A registration's date of first registration: the vehicle's age (required for a registration)")),
});
export type UploadDocumentBody = Static<typeof UploadDocumentBody>;

/** A document as its driver and operators see it: everything but the file (GET …/file serves that). */
export const DriverDocument = Type.Object({
  driverId: Type.Integer(),
  kind: Type.Enum(DOCUMENT_KINDS),
  contentType: Type.Enum(DOCUMENT_TYPES),
  size: Type.Integer({ description: 'Bytes' }),
  expiresOn: Type.String({ format: 'date' }),
  registeredOn: Nullable(Type.String({ format: 'date' })),
  status: Type.Enum(DOCUMENT_STATUSES),
  reason: Nullable(Type.String({ description: "The operator's reason for a rejection" })),
  valid: Type.Boolean({ description: 'Approved, not expired, and (a registration under IN-MVAG-2025) a vehicle at most 8 years old' }),
  uploadedAt: Timestamp,
  reviewedAt: OptionalTimestamp,
});
export type DriverDocument = Static<typeof DriverDocument>;

export const DriverDocuments = Type.Object({
  items: Type.Array(DriverDocument),
  missing: Type.Array(Type.Enum(DOCUMENT_KINDS), { description: 'Kinds not uploaded yet' }),
  cleared: Type.Boolean({ description: 'Every kind valid: what DRIVER_DOCUMENTS_REQUIRED asks before offers and accepts' }),
});
export type DriverDocuments = Static<typeof DriverDocuments>;
