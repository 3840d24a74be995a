import type { Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import type { DriverDocuments } from '../drivers/driver-documents.service.ts';
import type { DocumentKind, DocumentType, DriverDocument, DriverDocuments as DocumentList } from '../drivers/documents.schemas.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { AuditTrail } from './audit.ts';

export interface AdminDocumentsDependencies {
  transactions: Transactions;
  documents: Pick<DriverDocuments, 'of' | 'file' | 'review'>;
  notifications: Pick<NotificationsService, 'record'>;
  audit: Pick<AuditTrail, 'record'>;
}

/** Operators' review of drivers' documents: each file seen, each approved or rejected with a reason (audited, the driver notified). */
export class AdminDocuments {
  readonly #deps: AdminDocumentsDependencies;

  constructor(deps: AdminDocumentsDependencies) {
    this.#deps = deps;
  }

  list(driverId: number): Promise<DocumentList> {
    return this.#deps.documents.of(driverId);
  }

  file(driverId: number, kind: DocumentKind): Promise<{ contentType: DocumentType; data: Buffer }> {
    return this.#deps.documents.file(driverId, kind);
  }

  approve(actor: Actor, driverId: number, kind: DocumentKind): Promise<DriverDocument> {
    return this.#decide(actor, driverId, kind, null);
  }

  reject(actor: Actor, driverId: number, kind: DocumentKind, reason: string): Promise<DriverDocument> {
    return this.#decide(actor, driverId, kind, reason.trim());
  }

  /** The decision, the driver's notice and the audit entry commit together. A rejection is the one with a reason. */
  #decide(actor: Actor, driverId: number, kind: DocumentKind, reason: string | null): Promise<DriverDocument> {
    const status = reason === null ? 'approved' : 'rejected';
    return this.#deps.transactions.run(async (tx) => {
      const changed = await this.#deps.documents.review(tx, driverId, kind, { status, reason, reviewedBy: actor.id });
      await this.#deps.notifications.record(tx, [
        reason === null
          ? { userId: driverId, eventType: 'DOCUMENT_APPROVED', text: { name: 'documentApproved', values: { kind, expiresOn: Date.parse(changed.after.expiresOn) } } }
          : { userId: driverId, eventType: 'DOCUMENT_REJECTED', text: { name: 'documentRejected', values: { kind, reason } } },
      ]);
      await this.#deps.audit.record(tx, { actor, action: `document.${reason === null ? 'approve' : 'reject'}`, target: { type: 'driver', id: driverId }, ...changed });
      return changed.after;
    });
  }
}
