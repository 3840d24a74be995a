import { useEffect, useState } from 'preact/hooks';
import type { DocumentKind, DriverDocuments, UploadDocumentBody } from '../api/types.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { labelsOf, t } from '../i18n/i18n.ts';

const KINDS = ['licence', 'registration', 'insurance', 'permit'] as const satisfies readonly DocumentKind[];
const KIND_LABELS = labelsOf('doc.', KINDS);
const TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
const STATUS = labelsOf('docStatus.', ['pending', 'approved', 'rejected'] as const);

/** The driver's documents: where each stands, and an upload for each (PDF, JPEG or PNG, at most 5 MB). */
export function DocumentsScreen() {
  const api = useApi();
  const [list, setList] = useState<DriverDocuments | null>(null);
  const load = useAction(async () => setList(await api.drivers.documents()));
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="documents-title">
      <h2 id="documents-title">{t('documents.title')}</h2>
      {list && <Notice kind={list.cleared ? 'info' : 'warn'}>{list.cleared ? t('documents.cleared') : t('documents.upload')}</Notice>}
      <ErrorNotice message={load.error} />
      {list &&
        KINDS.map((kind) => {
          const label = KIND_LABELS[kind];
          const document = list.items.find((item) => item.kind === kind);
          return (
            <div key={kind} class="card stack" data-document={kind}>
              <strong>{label}</strong>
              <span class="muted">
                {document ? t(document.status === 'approved' && !document.valid ? 'documents.validThroughExpired' : 'documents.validThrough', { date: document.expiresOn, status: STATUS[document.status] }) : t('documents.notUploaded')}
              </span>
              {document?.reason && <span class="muted">{t('documents.reason', { reason: document.reason })}</span>}
              <UploadForm kind={kind} label={label} onUploaded={() => void load.run()} />
            </div>
          );
        })}
    </section>
  );
}

function UploadForm({ kind, label, onUploaded }: { kind: DocumentKind; label: string; onUploaded: () => void }) {
  const api = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [expiresOn, setExpiresOn] = useState('');
  const [registeredOn, setRegisteredOn] = useState('');
  const upload = useAction(async () => {
    const contentType = TYPES.find((type) => type === file?.type);
    if (!file || !contentType) throw new Error(t('documents.chooseFile'));
    const body: UploadDocumentBody = { contentType, data: await base64Of(file), expiresOn, ...(kind === 'registration' ? { registeredOn } : {}) };
    await api.drivers.uploadDocument(kind, body);
    onUploaded();
  });
  return (
    <form
      class="stack"
      aria-label={t('documents.uploadAria', { label: label.toLowerCase() })}
      onSubmit={(event) => {
        event.preventDefault();
        void upload.run();
      }}
    >
      <Field label={t('documents.file')} hint={t('documents.fileHint')}>
        <input type="file" accept={TYPES.join(',')} required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </Field>
      <Field label={t('documents.validThroughLabel')}>
        <input type="date" required value={expiresOn} onInput={(e) => setExpiresOn(e.currentTarget.value)} />
      </Field>
      {kind === 'registration' && (
        <Field label={t('documents.registeredOn')}>
          <input type="date" required value={registeredOn} onInput={(e) => setRegisteredOn(e.currentTarget.value)} />
        </Field>
      )}
      <ErrorNotice message={upload.error} />
      <button type="submit" class="secondary" disabled={upload.busy}>
        {t('documents.uploadButton')}
      </button>
    </form>
  );
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
