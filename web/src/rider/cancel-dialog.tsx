import { useEffect, useRef, useState } from 'preact/hooks';
import type { Ride } from '../api/types.ts';
import { CancellationFee, useCancellationQuote } from '../ui/cancellation-fee.tsx';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  ride: Ride;
  onCancelled: (ride: Ride) => void;
  onClose: () => void;
}

/** Asks before cancelling, with the fee the service would charge now (never computed here). */
export function CancelDialog({ ride, onCancelled, onClose }: Props) {
  const api = useApi();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const fee = useCancellationQuote(ride);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const cancel = useAction(async () => {
    onCancelled(await api.rides.cancel(ride.id, { reason: reason.trim() || null }));
    onClose();
  });
  return (
    <dialog ref={dialog} aria-labelledby="cancel-title" onClose={onClose}>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void cancel.run();
        }}
      >
        <h2 id="cancel-title">{t('cancel.title')}</h2>
        <CancellationFee {...fee} />
        <Field label={t('cancel.reason')}>
          <input name="reason" maxLength={600} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
        <ErrorNotice message={cancel.error} />
        <div class="row">
          {/* Not before the rider has seen what it costs (or that the service could not say). */}
          <button type="submit" class="danger" disabled={cancel.busy || (!fee.quote && !fee.error)}>
            {cancel.busy ? t('cancel.cancelling') : t('cancel.yes')}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            {t('cancel.keep')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
