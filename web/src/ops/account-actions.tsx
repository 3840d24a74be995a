import { useState } from 'preact/hooks';
import type { Account } from '../api/types.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ROLE_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

type Asking = 'block' | 'unblock' | 'erase' | null;

interface Props {
  account: Account;
  /** The account as the API answered the change. */
  onChanged: (account: Account) => void;
}

/** Block (with a reason), unblock and erase one account, each asked first. */
export function AccountActions({ account, onChanged }: Props) {
  const api = useApi();
  const [asking, setAsking] = useState<Asking>(null);
  const who = `${account.name} (${ROLE_LABELS[account.role].toLowerCase()} ${account.id}, ${account.email})`;
  if (account.status === 'deleted') return null;
  return (
    <div class="row">
      {account.status === 'active' ? (
        <button type="button" class="secondary" aria-label={`Block ${account.name}`} onClick={() => setAsking('block')}>
          Block
        </button>
      ) : (
        <button type="button" class="secondary" aria-label={`Unblock ${account.name}`} onClick={() => setAsking('unblock')}>
          Unblock
        </button>
      )}
      <button type="button" class="danger" aria-label={`Erase ${account.name}`} onClick={() => setAsking('erase')}>
        Erase
      </button>
      {asking === 'block' && (
        <ConfirmDialog
          title="Block this account?"
          confirmLabel="Block"
          reasonLabel="Reason"
          reasonHint="Kept in the audit trail for other operators; not shown to the person."
          danger
          onConfirm={async (reason) => onChanged(await api.admin.block(account.id, { reason }))}
          onClose={() => setAsking(null)}
        >
          <p class="flush">{who} can no longer log in, and every session they have ends within a second.</p>
        </ConfirmDialog>
      )}
      {asking === 'unblock' && (
        <ConfirmDialog title="Unblock this account?" confirmLabel="Unblock" onConfirm={async () => onChanged(await api.admin.unblock(account.id))} onClose={() => setAsking(null)}>
          <p class="flush">{who} can log in again.</p>
        </ConfirmDialog>
      )}
      {asking === 'erase' && (
        <ConfirmDialog title="Erase this account?" confirmLabel="Erase for good" danger onConfirm={async () => onChanged(await api.admin.erase(account.id))} onClose={() => setAsking(null)}>
          <p class="flush">
            {who}: name, e-mail and everything they wrote are erased and their sessions end. Rides and payments stay for the accounts, without their name. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
