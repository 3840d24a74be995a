import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { Complaint, ComplaintStatus } from '../api/types.ts';
import { rich, t } from '../i18n/i18n.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { keysOf } from '../ui/labels.ts';
import { usePages } from '../ui/use-pages.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { COMPLAINT_CATEGORY_LABELS, COMPLAINT_STATUS_LABELS, PARTY_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

/** Riders' and drivers' complaints by status, open first; resolving one tells the complainant. */
export function ComplaintsScreen() {
  const api = useApi();
  const [status, setStatus] = useState<ComplaintStatus | ''>('open');
  const complaints = usePages((cursor) => api.admin.complaints({ status: status || undefined, cursor }), status);
  return (
    <section class="stack" aria-labelledby="complaints-title">
      <h2 id="complaints-title">{t('ops.complaints.title')}</h2>
      <Field label={t('ops.complaints.show')}>
        <select name="status" value={status} onChange={(event) => setStatus(event.currentTarget.value as ComplaintStatus | '')}>
          {keysOf(COMPLAINT_STATUS_LABELS).map((value) => (
            <option key={value} value={value}>
              {COMPLAINT_STATUS_LABELS[value]}
            </option>
          ))}
          <option value="">{t('ops.all')}</option>
        </select>
      </Field>
      <ErrorNotice message={complaints.load.error} />
      {complaints.items?.length === 0 && <p class="muted">{t('ops.complaints.none')}</p>}
      <ul class="list" aria-label={t('ops.complaints.title')}>
        {complaints.items?.map((complaint) => (
          <ComplaintItem key={complaint.id} complaint={complaint} onResolved={(next) => complaints.replace((item) => item.id === next.id, next)} />
        ))}
      </ul>
      {complaints.cursor && (
        <button type="button" class="secondary" disabled={complaints.load.busy} onClick={() => void complaints.load.run(complaints.cursor!)}>
          {t('ops.complaints.older')}
        </button>
      )}
    </section>
  );
}

function ComplaintItem({ complaint, onResolved }: { complaint: Complaint; onResolved: (complaint: Complaint) => void }) {
  const api = useApi();
  const [resolving, setResolving] = useState(false);
  const title = t('ops.complaint.title', { id: complaint.id, category: COMPLAINT_CATEGORY_LABELS[complaint.category] });
  return (
    <li class="card stack" data-complaint={complaint.id}>
      <div class="row spread">
        <h3 class="flush">{title}</h3>
        <span>{COMPLAINT_STATUS_LABELS[complaint.status]}</span>
      </div>
      <span class="muted">
        {rich<VNode>('ops.complaint.by', {
          party: PARTY_LABELS[complaint.party],
          user: complaint.filedBy,
          ride: complaint.rideId,
          time: dateTimeOf(complaint.createdAt),
          link: (chunks) => <a href={`#/rides/${complaint.rideId}`}>{chunks}</a>,
        })}
      </span>
      <p class="flush">{complaint.message}</p>
      {complaint.status === 'resolved' ? (
        <p class="notice flush">
          {t('ops.complaint.resolved', {
            operator: complaint.resolvedBy ?? '',
            hasTime: complaint.resolvedAt ? 'yes' : 'no',
            time: complaint.resolvedAt ? dateTimeOf(complaint.resolvedAt) : '',
            resolution: complaint.resolution ?? '',
          })}
        </p>
      ) : (
        <button type="button" aria-label={t('ops.complaint.resolveName', { id: complaint.id })} onClick={() => setResolving(true)}>
          {t('ops.resolve')}
        </button>
      )}
      {resolving && (
        <ConfirmDialog
          title={t('ops.complaint.resolveTitle', { id: complaint.id })}
          confirmLabel={t('ops.resolve')}
          reasonLabel={t('ops.complaint.resolution')}
          reasonHint={t('ops.complaint.resolveHint')}
          onConfirm={async (resolution) => onResolved(await api.admin.resolve(complaint.id, { resolution }))}
          onClose={() => setResolving(false)}
        >
          <p class="flush">“{complaint.message}”</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
