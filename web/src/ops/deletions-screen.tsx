import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { usePages } from '../ui/use-pages.ts';
import { AccountItem } from './users-screen.tsx';
import { useApi } from '../ui/app-context.tsx';

/** People who asked (in their settings) for their account to be deleted: erase each after a check. */
export function DeletionsScreen() {
  const api = useApi();
  const requests = usePages((cursor) => api.admin.deletionRequests(cursor), 'deletion-requests');
  return (
    <section class="stack" aria-labelledby="deletions-title">
      <h2 id="deletions-title">{t('ops.deletions.title')}</h2>
      <p class="muted flush">{t('ops.deletions.note')}</p>
      <ErrorNotice message={requests.load.error} />
      {requests.items?.length === 0 && <p class="muted">{t('ops.deletions.none')}</p>}
      <ul class="list" aria-label={t('ops.deletions.title')}>
        {requests.items?.map((account) => (
          <AccountItem
            key={account.id}
            account={account}
            note={t('ops.deletions.asked', { time: dateTimeOf(account.deletionRequestedAt) })}
            // An erased account has left the queue.
            onChanged={(next) => requests.replace((item) => item.id === next.id, next.status === 'deleted' ? null : { ...account, ...next })}
          />
        ))}
      </ul>
      {requests.cursor && (
        <button type="button" class="secondary" disabled={requests.load.busy} onClick={() => void requests.load.run(requests.cursor!)}>
          {t('ops.deletions.older')}
        </button>
      )}
    </section>
  );
}
