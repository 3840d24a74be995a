import { badRequest } from '../../platform/errors.ts';
import { DOCUMENT_KINDS, DOCUMENT_MAX_BYTES, type DocumentKind, type DocumentType } from './documents.schemas.ts';

// What makes a document acceptable and valid (decisions.md "Safety", driver documents): pure
// functions of the file, the dates and the time.

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;

/** The first bytes of each accepted type: a file is what it starts with, not what it is called. */
const SIGNATURES: Record<DocumentType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

/** The file's bytes, once they are at most 5 MB and begin as the declared type does. */
export function documentFile(contentType: DocumentType, base64: string): Buffer {
  const data = Buffer.from(base64, 'base64');
  if (data.length > DOCUMENT_MAX_BYTES) throw badRequest('The file is larger than 5 MB', 'DOCUMENT_TOO_LARGE');
  if (!SIGNATURES[contentType].every((byte, index) => data[index] === byte)) throw badRequest(`The file is not a ${contentType} file`, 'DOCUMENT_TYPE_MISMATCH');
  return data;
}

/** The moment a document valid through `day` (YYYY-MM-DD) stops being valid: the end of that day, UTC. */
export const endOfDay = (day: string): number => Date.parse(`${day}T00:00:00Z`) + DAY_MS;

/** A vehicle first registered on `registeredOn` is older than `years` at `now`. */
export const olderThan = (registeredOn: string, years: number, now: number): boolean => now - Date.parse(`${registeredOn}T00:00:00Z`) > years * YEAR_MS;

export interface DocumentState {
  kind: string;
  status: string;
  expires_at: number;
  registered_on: string | null;
}

/** Approved, not expired, and for a registration under an age limit, a vehicle within it. */
export function isValid(document: DocumentState, now: number, ageLimitYears: number | null): boolean {
  if (document.status !== 'approved' || document.expires_at <= now) return false;
  return !(document.kind === 'registration' && ageLimitYears !== null && document.registered_on !== null && olderThan(document.registered_on, ageLimitYears, now));
}

/** Every kind is there and valid. */
export function allValid(documents: readonly DocumentState[], now: number, ageLimitYears: number | null): boolean {
  return DOCUMENT_KINDS.every((kind: DocumentKind) => documents.some((document) => document.kind === kind && isValid(document, now, ageLimitYears)));
}
