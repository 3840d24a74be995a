import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';

interface Props {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** Asks for a reason (required): the API keeps it in the audit trail, and some are read by the person concerned. */
  reasonLabel?: string;
  reasonHint?: string;
  /** A change that cannot be undone or that stops someone: the button says so in red. */
  danger?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

/** Asks before an operator's change, with the API's refusal shown in the dialog. */
export function ConfirmDialog({ title, children, confirmLabel, reasonLabel, reasonHint, danger, onConfirm, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const confirm = useAction(async () => {
    await onConfirm(reason.trim());
    dialog.current?.close();
  });
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onClose}>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm.run();
        }}
      >
        <h2 id="confirm-title">{title}</h2>
        <div class="stack">{children}</div>
        {reasonLabel && (
          <Field label={reasonLabel} hint={reasonHint}>
            <textarea name="reason" required rows={3} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
          </Field>
        )}
        <ErrorNotice message={confirm.error} />
        <div class="row">
          <button type="submit" class={danger ? 'danger' : ''} disabled={confirm.busy}>
            {confirm.busy ? t('ops.confirm.working') : confirmLabel}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            {t('ops.confirm.keep')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
