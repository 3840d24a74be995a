import { useEffect, useState } from 'preact/hooks';
import type { DocumentKind, DriverDocument } from '../api/types.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

const KIND_LABELS: Record<DocumentKind, string> = { licence: 'Driving licence', registration: 'Vehicle registration', insurance: 'Insurance', permit: 'Permit' };
const STATUS_LABELS: Record<DriverDocument['status'], string> = { pending: 'Waiting for review', approved: 'Approved', rejected: 'Rejected' };

/**
 * A driver's documents in the console: each file seen (an image inline, a PDF to open), then approved
 * or rejected with a reason the driver reads (audited). Images are shown as data: URLs, which the
 * pages' CSP admits; nothing a driver uploaded ever runs in the console's page.
 */
export function DocumentsReview({ driverId, driverName }: { driverId: number; driverName: string }) {
  const api = useApi();
  const [documents, setDocuments] = useState<DriverDocument[] | null>(null);
  const [missing, setMissing] = useState<DocumentKind[]>([]);
  const load = useAction(async () => {
    const list = await api.admin.driverDocuments(driverId);
    setDocuments(list.items);
    setMissing(list.missing);
  });
  useEffect(() => void load.run(), [driverId]);
  const replace = (next: DriverDocument) => setDocuments((items) => items?.map((item) => (item.kind === next.kind ? next : item)) ?? null);
  return (
    <div class="stack">
      <ErrorNotice message={load.error} />
      {documents?.length === 0 && <p class="muted flush">No document uploaded yet.</p>}
      {documents?.map((document) => <DocumentItem key={document.kind} document={document} driverName={driverName} onDecided={replace} />)}
      {missing.length > 0 && documents && <p class="muted flush">Not uploaded: {missing.map((kind) => KIND_LABELS[kind]).join(', ')}.</p>}
    </div>
  );
}

function DocumentItem({ document, driverName, onDecided }: { document: DriverDocument; driverName: string; onDecided: (document: DriverDocument) => void }) {
  const api = useApi();
  const [file, setFile] = useState<{ url: string; image: boolean } | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const label = KIND_LABELS[document.kind];
  const show = useAction(async () => {
    const blob = await api.admin.documentFile(document.driverId, document.kind);
    const image = document.contentType !== 'application/pdf';
    setFile({ url: image ? await dataUrlOf(blob) : URL.createObjectURL(blob), image });
  });
  const approve = useAction(async () => onDecided(await api.admin.approveDocument(document.driverId, document.kind)));
  return (
    <div class="card stack" data-document={document.kind}>
      <div class="row spread">
        <strong>{label}</strong>
        <span>{STATUS_LABELS[document.status]}{document.status === 'approved' && !document.valid ? ' (no longer valid)' : ''}</span>
      </div>
      <span class="muted">
        Valid through {document.expiresOn}
        {document.registeredOn && ` · first registered ${document.registeredOn}`}
      </span>
      {document.reason && <span class="muted">Reason: {document.reason}</span>}
      {!file && (
        <button type="button" class="secondary" disabled={show.busy} onClick={() => void show.run()}>
          Show the {label.toLowerCase()}
        </button>
      )}
      {file?.image && <img class="document-file" src={file.url} alt={`${label} of ${driverName}`} />}
      {file && !file.image && (
        <a class="button secondary" href={file.url} download={`${document.kind}-${document.driverId}.pdf`}>
          Open the {label.toLowerCase()} (PDF)
        </a>
      )}
      <ErrorNotice message={show.error || approve.error} />
      <div class="row">
        {document.status !== 'approved' && (
          <button type="button" disabled={approve.busy} aria-label={`Approve the ${label.toLowerCase()}`} onClick={() => void approve.run()}>
            Approve
          </button>
        )}
        {document.status !== 'rejected' && (
          <button type="button" class="secondary" aria-label={`Reject the ${label.toLowerCase()}`} onClick={() => setRejecting(true)}>
            Reject
          </button>
        )}
      </div>
      {rejecting && (
        <ConfirmDialog
          title={`Reject the ${label.toLowerCase()}?`}
          confirmLabel="Reject"
          reasonLabel="Reason"
          reasonHint="The driver reads it in a notification, and uploads it again."
          danger
          onConfirm={async (reason) => onDecided(await api.admin.rejectDocument(document.driverId, document.kind, reason))}
          onClose={() => setRejecting(false)}
        >
          <p class="flush">{driverName} gets no offers without valid documents while DRIVER_DOCUMENTS_REQUIRED is on.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(blob);
  });
}
