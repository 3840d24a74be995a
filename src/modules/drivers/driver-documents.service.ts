import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { NewNotification } from '../notifications/notifications.service.ts';
import { allValid, documentFile, endOfDay, isValid, olderThan } from './document-rules.ts';
import * as repository from './documents.repository.ts';
import { DOCUMENT_KINDS, type DocumentKind, type DocumentStatus, type DocumentType, type DriverDocument, type DriverDocuments as DocumentList, type UploadDocumentBody } from './documents.schemas.ts';

/** How old a vehicle may be under the compliance profile the current pricing version names (pricing answers; null: no limit). */
export interface VehicleRules {
  vehicleAgeLimitYears(): number | null;
}

export interface DriverDocumentsDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  events: DomainEventsDispatcher;
  notifications: { record(tx: Tx, items: readonly NewNotification[]): Promise<unknown> };
  vehicleRules: VehicleRules;
}

/** Drivers are told this long before a document expires. */
export const EXPIRY_NOTICE_MS = 7 * 86_400_000;

/** Drivers' documents: uploads, operators' reviews, expiries and what they clear a driver for. */
export class DriverDocuments {
  readonly #deps: DriverDocumentsDependencies;

  constructor(deps: DriverDocumentsDependencies) {
    this.#deps = deps;
  }

  /** PUT /drivers/me/documents/{kind}: the file replaces the kind's last one and waits for an operator. */
  async upload(driverId: number, kind: DocumentKind, body: UploadDocumentBody): Promise<DriverDocument> {
    const now = this.#deps.clock.now();
    const data = documentFile(body.contentType, body.data);
    const expiresAt = endOfDay(body.expiresOn);
    if (expiresAt <= now) throw badRequest(`The document expired on ${body.expiresOn}`, 'DOCUMENT_EXPIRED');
    const registeredOn = kind === 'registration' ? body.registeredOn : undefined;
    if (kind === 'registration' && !registeredOn) throw badRequest('A registration needs registeredOn, the date of first registration');
    const limit = this.#deps.vehicleRules.vehicleAgeLimitYears();
    if (registeredOn && limit !== null && olderThan(registeredOn, limit, now)) {
      throw badRequest(`The vehicle was first registered on ${registeredOn}: more than ${limit} years ago, which IN-MVAG-2025 refuses`, 'VEHICLE_TOO_OLD');
    }
    const row = await this.#deps.transactions.run(async (tx) => {
      const saved = await repository.saveDocument(tx.db, {
        driver_id: driverId,
        kind,
        content_type: body.contentType,
        size: data.length,
        data,
        expires_on: body.expiresOn,
        expires_at: expiresAt,
        registered_on: registeredOn ?? null,
        status: 'pending',
        uploaded_at: now,
      });
      // A valid document replaced by one waiting for review: dispatch decides again.
      await this.#deps.events.emit(tx, 'driver.profile-changed', { driverId });
      return saved;
    });
    return this.#view(row, now);
  }

  /** A driver's documents, the kinds still missing, and whether they clear the driver. */
  async of(driverId: number): Promise<DocumentList> {
    const now = this.#deps.clock.now();
    const rows = await repository.documentsOf(this.#deps.db, [driverId]);
    return {
      items: rows.map((row) => this.#view(row, now)),
      missing: DOCUMENT_KINDS.filter((kind) => !rows.some((row) => row.kind === kind)),
      cleared: allValid(rows, now, this.#deps.vehicleRules.vehicleAgeLimitYears()),
    };
  }

  /** The file itself, for an operator's review. */
  async file(driverId: number, kind: DocumentKind): Promise<{ contentType: DocumentType; data: Buffer }> {
    const file = await repository.fileOf(this.#deps.db, driverId, kind);
    if (!file) throw notFound(`Driver ${driverId} has no ${kind} document`, 'DOCUMENT_NOT_FOUND');
    return { contentType: file.content_type as DocumentType, data: Buffer.from(file.data) };
  }

  /** An operator's decision, inside the operator's transaction (with its audit entry and notice): the document before and after. */
  async review(tx: Tx, driverId: number, kind: DocumentKind, decision: { status: DocumentStatus; reason: string | null; reviewedBy: number }): Promise<{ before: DriverDocument; after: DriverDocument }> {
    const now = this.#deps.clock.now();
    const before = await repository.findDocument(tx.db, driverId, kind);
    if (!before) throw notFound(`Driver ${driverId} has no ${kind} document`, 'DOCUMENT_NOT_FOUND');
    const after = (await repository.review(tx.db, driverId, kind, { ...decision, now }))!;
    await this.#deps.events.emit(tx, 'driver.profile-changed', { driverId });
    return { before: this.#view(before, now), after: this.#view(after, now) };
  }

  /** The drivers among these whose documents are all valid now (DRIVER_DOCUMENTS_REQUIRED's test, one query). */
  async cleared(driverIds: readonly number[]): Promise<Set<number>> {
    const now = this.#deps.clock.now();
    const limit = this.#deps.vehicleRules.vehicleAgeLimitYears();
    const rows = await repository.documentsOf(this.#deps.db, [...new Set(driverIds)]);
    return new Set(driverIds.filter((id) => allValid(rows.filter((row) => row.driver_id === id), now, limit)));
  }

  /**
   * One sweep (every instance runs them; the claims make each notice once): drivers told 7 days before
   * a document expires, and once it has, told again while dispatch drops them (driver.profile-changed).
   */
  async sweep(): Promise<void> {
    const now = this.#deps.clock.now();
    await this.#deps.transactions.run(async (tx) => {
      const expiring = await repository.claimExpiryNotices(tx.db, now, EXPIRY_NOTICE_MS);
      const expired = await repository.claimExpired(tx.db, now);
      await this.#deps.notifications.record(tx, [
        ...expiring.map((document): NewNotification => ({ userId: document.driver_id, eventType: 'DOCUMENT_EXPIRING', text: { name: 'documentExpiring', values: { kind: document.kind, expiresOn: Date.parse(document.expires_on) } } })),
        ...expired.map((document): NewNotification => ({ userId: document.driver_id, eventType: 'DOCUMENT_EXPIRED', text: { name: 'documentExpired', values: { kind: document.kind } } })),
      ]);
      for (const driverId of new Set(expired.map((document) => document.driver_id))) await this.#deps.events.emit(tx, 'driver.profile-changed', { driverId });
    });
  }

  #view(row: repository.DocumentRow, now: number): DriverDocument {
    return {
      driverId: row.driver_id,
      kind: row.kind as DocumentKind,
      contentType: row.content_type as DocumentType,
      size: row.size,
      expiresOn: row.expires_on,
      registeredOn: row.registered_on,
      status: row.status as DocumentStatus,
      reason: row.reason,
      valid: isValid(row, now, this.#deps.vehicleRules.vehicleAgeLimitYears()),
      uploadedAt: toIso(row.uploaded_at),
      reviewedAt: toIsoOrNull(row.reviewed_at),
    };
  }
}
