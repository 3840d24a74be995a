import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminDriver, Approval } from '../api/types.ts';
import { rich, t } from '../i18n/i18n.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { usePages } from '../ui/use-pages.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { DocumentsReview } from './documents-review.tsx';
import { APPROVAL_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

/**
 * Drivers with a vehicle. Where approval is required (DRIVER_APPROVAL_REQUIRED), the queue (pending)
 * first, to approve or reject with a reason; where it is not, every driver drives without it, so
 * there is no queue: all of them, newest first, with decisions that count if approval is turned on.
 */
export function DriversScreen({ approvalRequired }: { approvalRequired: boolean }) {
  const api = useApi();
  const [approval, setApproval] = useState<Approval | ''>(approvalRequired ? 'pending' : '');
  const drivers = usePages((cursor) => api.admin.drivers({ approval: approval || undefined, cursor }), approval);
  return (
    <section class="stack" aria-labelledby="drivers-title">
      <h2 id="drivers-title">{approvalRequired ? t('ops.drivers.approvalTitle') : t('ops.drivers.title')}</h2>
      {!approvalRequired && (
        <Notice>{rich<VNode>('ops.drivers.approvalOff', { code: (chunks) => <code>{chunks}</code> })}</Notice>
      )}
      <Field label={t('ops.drivers.show')}>
        <Choice name="approval" value={approval} labels={APPROVAL_LABELS} any={t('ops.all')} onChange={setApproval} />
      </Field>
      <ErrorNotice message={drivers.load.error} />
      {drivers.items?.length === 0 && <p class="muted">{t('ops.drivers.none')}</p>}
      <ul class="list" aria-label={t('ops.drivers.title')}>
        {drivers.items?.map((driver) => (
          <DriverItem
            key={driver.driverId}
            driver={driver}
            // Shown with the decision until the list is read again, so the operator sees it was made.
            onDecided={(next) => drivers.replace((item) => item.driverId === next.driverId, next)}
          />
        ))}
      </ul>
      {drivers.cursor && (
        <button type="button" class="secondary" disabled={drivers.load.busy} onClick={() => void drivers.load.run(drivers.cursor!)}>
          {t('ops.showOlder')}
        </button>
      )}
    </section>
  );
}

function DriverItem({ driver, onDecided }: { driver: AdminDriver; onDecided: (driver: AdminDriver) => void }) {
  const api = useApi();
  const [rejecting, setRejecting] = useState(false);
  const [showDocuments, setShowDocuments] = useState(false);
  const approve = useAction(async () => onDecided({ ...driver, ...(await api.admin.approve(driver.driverId)) }));
  return (
    <li class="card stack" data-driver={driver.driverId}>
      <div class="row spread">
        <strong>
          {driver.name} <span class="muted">({driver.driverId})</span>
        </strong>
        <span>{APPROVAL_LABELS[driver.approval]}</span>
      </div>
      <span>
        {RIDE_TYPE_LABELS[driver.vehicleType]} {driver.vehicleNumber}
        {driver.vehicleModel && ` · ${driver.vehicleModel}`}
        {driver.acAvailable && ` · ${t('ops.drivers.ac')}`}
      </span>
      <span class="muted">
        {t('ops.drivers.changed', { email: driver.email, time: dateTimeOf(driver.updatedAt) })}
      </span>
      {driver.approvalReason && <span class="muted">{t('ops.reasonIs', { reason: driver.approvalReason })}</span>}
      <ErrorNotice message={approve.error} />
      <div class="row">
        {driver.approval !== 'approved' && (
          <button type="button" disabled={approve.busy} aria-label={t('ops.drivers.approveName', { name: driver.name })} onClick={() => void approve.run()}>
            {t('ops.approve')}
          </button>
        )}
        {driver.approval !== 'rejected' && (
          <button type="button" class="secondary" aria-label={t('ops.drivers.rejectName', { name: driver.name })} onClick={() => setRejecting(true)}>
            {t('ops.reject')}
          </button>
        )}
      </div>
      {/* Read when opened: a page of drivers does not fetch every driver's documents. */}
      <details onToggle={(event) => setShowDocuments(event.currentTarget.open)}>
        <summary>{t('ops.drivers.documentsOf', { name: driver.name })}</summary>
        {showDocuments && <DocumentsReview driverId={driver.driverId} driverName={driver.name} />}
      </details>
      {rejecting && (
        <ConfirmDialog
          title={t('ops.drivers.rejectTitle', { name: driver.name })}
          confirmLabel={t('ops.reject')}
          reasonLabel={t('ops.reason')}
          reasonHint={t('ops.drivers.rejectHint')}
          danger
          onConfirm={async (reason) => onDecided({ ...driver, ...(await api.admin.reject(driver.driverId, { reason })) })}
          onClose={() => setRejecting(false)}
        >
          <p class="flush">{t('ops.drivers.rejectWhat', { vehicle: `${RIDE_TYPE_LABELS[driver.vehicleType]} ${driver.vehicleNumber}` })}</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
