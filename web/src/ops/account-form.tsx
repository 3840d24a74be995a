import { useState } from 'preact/hooks';
import type { AdminUser, CreateUserBody } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { t } from '../i18n/i18n.ts';
import { useAction } from '../ui/use-action.ts';
import { ROLE_LABELS } from './ops-labels.ts';
import { useApi } from '../ui/app-context.tsx';

const blank: CreateUserBody = { name: '', email: '', password: '', role: 'DRIVER' };

/** An operator creates an account without the e-mail code (a driver they on-board, a colleague). */
export function AccountForm({ onCreated }: { onCreated: () => void }) {
  const api = useApi();
  const [form, setForm] = useState<CreateUserBody>(blank);
  const [created, setCreated] = useState<AdminUser | null>(null);
  const create = useAction(async () => {
    setCreated(await api.admin.createUser({ ...form, name: form.name.trim(), email: form.email.trim() }));
    setForm(blank);
    onCreated();
  });
  const change = (patch: Partial<CreateUserBody>) => setForm({ ...form, ...patch });
  return (
    <form
      class="card stack"
      aria-labelledby="create-title"
      onSubmit={(event) => {
        event.preventDefault();
        void create.run();
      }}
    >
      <h3 id="create-title" class="flush">
        {t('ops.create.title')}
      </h3>
      <div class="toolbar">
        <Field label={t('ops.create.name')}>
          <input name="name" required maxLength={100} value={form.name} onInput={(event) => change({ name: event.currentTarget.value })} />
        </Field>
        <Field label={t('ops.create.email')}>
          <input type="email" name="email" required value={form.email} onInput={(event) => change({ email: event.currentTarget.value })} />
        </Field>
        <Field label={t('ops.create.password')} hint={t('ops.create.passwordHint')}>
          <input type="password" name="password" autocomplete="new-password" required minLength={8} maxLength={128} value={form.password} onInput={(event) => change({ password: event.currentTarget.value })} />
        </Field>
        <Field label={t('ops.create.role')}>
          <Choice name="role" value={form.role} labels={ROLE_LABELS} onChange={(value) => change({ role: value })} />
        </Field>
      </div>
      <ErrorNotice message={create.error} />
      {created && (
        <Notice>
          {t('ops.create.done', { id: created.id, name: created.name, email: created.email, role: ROLE_LABELS[created.role].toLowerCase() })}
        </Notice>
      )}
      <button type="submit" disabled={create.busy}>
        {create.busy ? t('ops.create.creating') : t('ops.create.create')}
      </button>
    </form>
  );
}
