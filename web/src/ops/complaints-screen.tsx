import { useState } from 'preact/hooks';
import type { Complaint, ComplaintStatus } from '../api/types.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { keysOf } from '../ui/labels.ts';
import { usePages } from '../ui/use-pages.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { COMPLAINT_CATEGORY_LABELS, COMPLAINT_STATUS_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

/** Riders' and drivers' complaints by status, open first; resolving one tells the complainant. */
export function ComplaintsScreen() {
  const api = useApi();
  const [status, setStatus] = useState<ComplaintStatus | ''>('open');
  const complaints = usePages((cursor) => api.admin.complaints({ status: status || undefined, cursor }), status);
  return (
    <section class="stack" aria-labelledby="complaints-title">
      <h2 id="complaints-title">Complaints</h2>
      <Field label="Show complaints">
        <select name="status" value={status} onChange={(event) => setStatus(event.currentTarget.value as ComplaintStatus | '')}>
          {keysOf(COMPLAINT_STATUS_LABELS).map((value) => (
            <option key={value} value={value}>
              {COMPLAINT_STATUS_LABELS[value]}
            </option>
          ))}
          <option value="">All</option>
        </select>
      </Field>
      <ErrorNotice message={complaints.load.error} />
      {complaints.items?.length === 0 && <p class="muted">No complaint here.</p>}
      <ul class="list" aria-label="Complaints">
        {complaints.items?.map((complaint) => (
          <ComplaintItem key={complaint.id} complaint={complaint} onResolved={(next) => complaints.replace((item) => item.id === next.id, next)} />
        ))}
      </ul>
      {complaints.cursor && (
        <button type="button" class="secondary" disabled={complaints.load.busy} onClick={() => void complaints.load.run(complaints.cursor!)}>
          Show older complaints
        </button>
      )}
    </section>
  );
}

function ComplaintItem({ complaint, onResolved }: { complaint: Complaint; onResolved: (complaint: Complaint) => void }) {
  const api = useApi();
  const [resolving, setResolving] = useState(false);
  const title = `Complaint ${complaint.id}: ${COMPLAINT_CATEGORY_LABELS[complaint.category]}`;
  return (
    <li class="card stack" data-complaint={complaint.id}>
      <div class="row spread">
        <h3 class="flush">{title}</h3>
        <span>{COMPLAINT_STATUS_LABELS[complaint.status]}</span>
      </div>
      <span class="muted">
        By the {complaint.party} (user {complaint.filedBy}) about <a href={`#/rides/${complaint.rideId}`}>ride {complaint.rideId}</a>, {dateTimeOf(complaint.createdAt)}
      </span>
      <p class="flush">{complaint.message}</p>
      {complaint.status === 'resolved' ? (
        <p class="notice flush">
          Resolved by operator {complaint.resolvedBy}
          {complaint.resolvedAt && `, ${dateTimeOf(complaint.resolvedAt)}`}: {complaint.resolution}
        </p>
      ) : (
        <button type="button" aria-label={`Resolve complaint ${complaint.id}`} onClick={() => setResolving(true)}>
          Resolve
        </button>
      )}
      {resolving && (
        <ConfirmDialog
          title={`Resolve complaint ${complaint.id}?`}
          confirmLabel="Resolve"
          reasonLabel="Resolution"
          reasonHint="The complainant reads it in a notification; the ride's other party is told the complaint was closed."
          onConfirm={async (resolution) => onResolved(await api.admin.resolve(complaint.id, { resolution }))}
          onClose={() => setResolving(false)}
        >
          <p class="flush">“{complaint.message}”</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
