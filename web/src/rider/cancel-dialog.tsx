import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api/endpoints.ts';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';

interface Props {
  api: Api;
  ride: Ride;
  onCancelled: (ride: Ride) => void;
  onClose: () => void;
}

/**
 * Asks before cancelling. The fee is the operator's pricing rule, which the API does not tell a
 * rider before cancelling, so it is not guessed here: the answer of the cancellation shows it.
 */
export function CancelDialog({ api, ride, onCancelled, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
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
        <h2 id="cancel-title">Cancel this ride?</h2>
        <p data-testid="fee-rule">
          {ride.status === 'REQUESTED'
            ? 'No driver has accepted yet, so cancelling is free.'
            : 'A driver is already on the way, so a cancellation fee applies (a share of the fare set by the operator). The amount is shown as soon as the ride is cancelled.'}
        </p>
        <Field label="Reason (optional)">
          <input name="reason" maxLength={600} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
        <ErrorNotice message={cancel.error} />
        <div class="row">
          <button type="submit" class="danger" disabled={cancel.busy}>
            {cancel.busy ? 'Cancelling…' : 'Yes, cancel'}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Keep my ride
          </button>
        </div>
      </form>
    </dialog>
  );
}
