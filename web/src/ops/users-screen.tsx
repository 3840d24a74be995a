import { useState } from 'preact/hooks';
import type { Account, AccountQuery, AccountStatus, Role } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { Choice, ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';

import { usePages } from '../ui/use-pages.ts';
import { AccountActions } from './account-actions.tsx';
import { AccountForm } from './account-form.tsx';
import { ACCOUNT_STATUS_LABELS, ROLE_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

type Filters = Pick<Partial<AccountQuery>, 'q' | 'role' | 'status'>;

/** Accounts by name or e-mail, role and status: block, unblock or erase one; create one. */
export function UsersScreen() {
  const api = useApi();
  const [form, setForm] = useState({ q: '', role: '' as Role | '', status: '' as AccountStatus | '' });
  const [filters, setFilters] = useState<Filters>({});
  const accounts = usePages((cursor) => api.admin.users({ ...filters, cursor }), JSON.stringify(filters));
  const change = (patch: Partial<typeof form>) => setForm({ ...form, ...patch });
  return (
    <section class="stack" aria-labelledby="users-title">
      <h2 id="users-title">{t('ops.users.title')}</h2>
      <form
        class="card stack"
        aria-label={t('ops.users.find')}
        onSubmit={(event) => {
          event.preventDefault();
          setFilters({ q: form.q.trim() || undefined, role: form.role || undefined, status: form.status || undefined });
        }}
      >
        <div class="toolbar">
          <Field label={t('ops.users.query')}>
            <input name="q" type="search" maxLength={100} value={form.q} onInput={(event) => change({ q: event.currentTarget.value })} />
          </Field>
          <Field label={t('ops.users.role')}>
            <Choice name="role" value={form.role} labels={ROLE_LABELS} any={t('ops.any')} onChange={(value) => change({ role: value })} />
          </Field>
          <Field label={t('ops.users.status')}>
            <Choice name="status" value={form.status} labels={ACCOUNT_STATUS_LABELS} any={t('ops.any')} onChange={(value) => change({ status: value })} />
          </Field>
        </div>
        <button type="submit">{t('ops.search')}</button>
      </form>
      <ErrorNotice message={accounts.load.error} />
      {accounts.items?.length === 0 && <p class="muted">{t('ops.users.none')}</p>}
      <ul class="list" aria-label={t('ops.users.found')}>
        {accounts.items?.map((account) => (
          <AccountItem key={account.id} account={account} onChanged={(next) => accounts.replace((item) => item.id === next.id, next)} />
        ))}
      </ul>
      {accounts.cursor && (
        <button type="button" class="secondary" disabled={accounts.load.busy} onClick={() => void accounts.load.run(accounts.cursor!)}>
          {t('ops.users.older')}
        </button>
      )}
      <AccountForm onCreated={() => void accounts.load.run()} />
    </section>
  );
}

export function AccountItem({ account, note, onChanged }: { account: Account; note?: string; onChanged: (account: Account) => void }) {
  return (
    <li class="card stack" data-account={account.id}>
      <div class="row spread">
        <strong>
          {account.name} <span class="muted">({account.id})</span>
        </strong>
        <span class={`status-${account.status}`}>{ACCOUNT_STATUS_LABELS[account.status]}</span>
      </div>
      <span>
        {t('ops.users.since', { email: account.email, role: ROLE_LABELS[account.role], time: dateTimeOf(account.createdAt) })}
      </span>
      {account.statusReason && account.status === 'blocked' && <span class="muted">{t('ops.users.blockedBecause', { reason: account.statusReason })}</span>}
      {note && <span class="muted">{note}</span>}
      <AccountActions account={account} onChanged={onChanged} />
    </li>
  );
}
