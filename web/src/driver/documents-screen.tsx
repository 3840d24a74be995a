import { useEffect, useState } from 'preact/hooks';
import type { DocumentKind, DriverDocuments, UploadDocumentBody } from '../api/types.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';

const KINDS: Array<[DocumentKind, string]> = [
  ['licence', 'Driving licence'],
  ['registration', 'Vehicle registration'],
  ['insurance', 'Insurance'],
  ['permit', 'Permit'],
];
const TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
const STATUS = { pending: 'waiting for an operator', approved: 'approved', rejected: 'rejected' } as const;

/** The driver's documents: where each stands, and an upload for each (PDF, JPEG or PNG, at most 5 MB). */
export function DocumentsScreen() {
  const api = useApi();
  const [list, setList] = useState<DriverDocuments | null>(null);
  const load = useAction(async () => setList(await api.drivers.documents()));
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      {list && <Notice kind={list.cleared ? 'info' : 'warn'}>{list.cleared ? 'All four documents are valid.' : 'Upload each document for an operator to check. Where the service requires documents, offers come once all four are valid.'}</Notice>}
      <ErrorNotice message={load.error} />
      {list &&
        KINDS.map(([kind, label]) => {
          const document = list.items.find((item) => item.kind === kind);
          return (
            <div key={kind} class="card stack" data-document={kind}>
              <strong>{label}</strong>
              <span class="muted">
                {document ? `Valid through ${document.expiresOn}: ${STATUS[document.status]}${document.status === 'approved' && !document.valid ? ', no longer valid' : ''}` : 'Not uploaded yet'}
              </span>
              {document?.reason && <span class="muted">Reason: {document.reason}</span>}
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
    if (!file || !contentType) throw new Error('Choose a PDF, JPEG or PNG file.');
    const body: UploadDocumentBody = { contentType, data: await base64Of(file), expiresOn, ...(kind === 'registration' ? { registeredOn } : {}) };
    await api.drivers.uploadDocument(kind, body);
    onUploaded();
  });
  return (
    <form
      class="stack"
      aria-label={`Upload the ${label.toLowerCase()}`}
      onSubmit={(event) => {
        event.preventDefault();
        void upload.run();
      }}
    >
      <Field label="File" hint="PDF, JPEG or PNG, at most 5 MB.">
        <input type="file" accept={TYPES.join(',')} required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </Field>
      <Field label="Valid through">
        <input type="date" required value={expiresOn} onInput={(e) => setExpiresOn(e.currentTarget.value)} />
      </Field>
      {kind === 'registration' && (
        <Field label="First registered on">
          <input type="date" required value={registeredOn} onInput={(e) => setRegisteredOn(e.currentTarget.value)} />
        </Field>
      )}
      <ErrorNotice message={upload.error} />
      <button type="submit" class="secondary" disabled={upload.busy}>
        Upload
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
