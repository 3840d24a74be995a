import { useEffect, useState } from 'preact/hooks';
import type { VNode } from 'preact';
import type { DocumentKind, DriverDocument } from '../api/types.ts';
import { labelsOf, rich, t } from '../i18n/i18n.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice } from '../ui/components.tsx';
import { dayOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { every } from '../ui/labels.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { DOCUMENT_STATUS_LABELS } from './ops-labels.ts';

/** The documents as the driver app names them (doc.*). */
const KIND_LABELS = labelsOf('doc.', every<DocumentKind>()(['licence', 'registration', 'insurance', 'permit']));

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
      {documents?.length === 0 && <p class="muted flush">{t('ops.documents.none')}</p>}
      {documents?.map((document) => <DocumentItem key={document.kind} document={document} driverName={driverName} onDecided={replace} />)}
      {missing.length > 0 && documents && <p class="muted flush">{t('ops.documents.missing', { list: missing.map((kind) => KIND_LABELS[kind]).join(', ') })}</p>}
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
        <span>
          {document.status === 'approved' && !document.valid
            ? t('ops.documents.noLongerValid', { status: DOCUMENT_STATUS_LABELS[document.status] })
            : DOCUMENT_STATUS_LABELS[document.status]}
        </span>
      </div>
      <span class="muted">
        {document.registeredOn
          ? t('ops.documents.validThroughRegistered', { date: dayOf(document.expiresOn), registered: dayOf(document.registeredOn) })
          : t('ops.documents.validThrough', { date: dayOf(document.expiresOn) })}
      </span>
      {document.reason && <span class="muted">{t('ops.reasonIs', { reason: document.reason })}</span>}
      {!file && (
        <button type="button" class="secondary" disabled={show.busy} onClick={() => void show.run()}>
          {t('ops.documents.show', { label: label.toLowerCase() })}
        </button>
      )}
      {file?.image && <img class="document-file" src={file.url} alt={t('ops.documents.of', { label, name: driverName })} />}
      {file && !file.image && (
        <a class="button secondary" href={file.url} download={`${document.kind}-${document.driverId}.pdf`}>
          {t('ops.documents.open', { label: label.toLowerCase() })}
        </a>
      )}
      <ErrorNotice message={show.error || approve.error} />
      <div class="row">
        {document.status !== 'approved' && (
          <button type="button" disabled={approve.busy} aria-label={t('ops.documents.approve', { label: label.toLowerCase() })} onClick={() => void approve.run()}>
            {t('ops.approve')}
          </button>
        )}
        {document.status !== 'rejected' && (
          <button type="button" class="secondary" aria-label={t('ops.documents.reject', { label: label.toLowerCase() })} onClick={() => setRejecting(true)}>
            {t('ops.reject')}
          </button>
        )}
      </div>
      {rejecting && (
        <ConfirmDialog
          title={t('ops.documents.rejectTitle', { label: label.toLowerCase() })}
          confirmLabel={t('ops.reject')}
          reasonLabel={t('ops.reason')}
          reasonHint={t('ops.documents.rejectHint')}
          danger
          onConfirm={async (reason) => onDecided(await api.admin.rejectDocument(document.driverId, document.kind, reason))}
          onClose={() => setRejecting(false)}
        >
          <p class="flush">{rich<VNode>('ops.documents.rejectWhat', { name: driverName, code: (chunks) => <code>{chunks}</code> })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error(t('ops.documents.unreadable')));
    reader.readAsDataURL(blob);
  });
}
