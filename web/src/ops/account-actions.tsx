import { useState } from 'preact/hooks';
import type { Account } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
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
  const who = t('ops.account.who', { name: account.name, role: ROLE_LABELS[account.role].toLowerCase(), id: account.id, email: account.email });
  if (account.status === 'deleted') return null;
  return (
    <div class="row">
      {account.status === 'active' ? (
        <button type="button" class="secondary" aria-label={t('ops.account.blockName', { name: account.name })} onClick={() => setAsking('block')}>
          {t('ops.account.block')}
        </button>
      ) : (
        <button type="button" class="secondary" aria-label={t('ops.account.unblockName', { name: account.name })} onClick={() => setAsking('unblock')}>
          {t('ops.account.unblock')}
        </button>
      )}
      <button type="button" class="danger" aria-label={t('ops.account.eraseName', { name: account.name })} onClick={() => setAsking('erase')}>
        {t('ops.account.erase')}
      </button>
      {asking === 'block' && (
        <ConfirmDialog
          title={t('ops.account.blockTitle')}
          confirmLabel={t('ops.account.block')}
          reasonLabel={t('ops.reason')}
          reasonHint={t('ops.account.blockHint')}
          danger
          onConfirm={async (reason) => onChanged(await api.admin.block(account.id, { reason }))}
          onClose={() => setAsking(null)}
        >
          <p class="flush">{t('ops.account.blockWhat', { who })}</p>
        </ConfirmDialog>
      )}
      {asking === 'unblock' && (
        <ConfirmDialog
          title={t('ops.account.unblockTitle')}
          confirmLabel={t('ops.account.unblock')}
          onConfirm={async () => onChanged(await api.admin.unblock(account.id))} onClose={() => setAsking(null)}>
          <p class="flush">{t('ops.account.unblockWhat', { who })}</p>
        </ConfirmDialog>
      )}
      {asking === 'erase' && (
        <ConfirmDialog
          title={t('ops.account.eraseTitle')}
          confirmLabel={t('ops.account.eraseConfirm')}
          danger
          onConfirm={async () => onChanged(await api.admin.erase(account.id))} onClose={() => setAsking(null)}>
          <p class="flush">{t('ops.account.eraseWhat', { who })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
