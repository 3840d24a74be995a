import { useState } from 'preact/hooks';
import type { AdminUser, CreateUserBody } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
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
        Create an account
      </h3>
      <div class="toolbar">
        <Field label="Name">
          <input name="name" required maxLength={100} value={form.name} onInput={(event) => change({ name: event.currentTarget.value })} />
        </Field>
        <Field label="E-mail">
          <input type="email" name="email" required value={form.email} onInput={(event) => change({ email: event.currentTarget.value })} />
        </Field>
        <Field label="First password" hint="8 to 128 characters; tell it to the person, who can change it.">
          <input type="password" name="password" autocomplete="new-password" required minLength={8} maxLength={128} value={form.password} onInput={(event) => change({ password: event.currentTarget.value })} />
        </Field>
        <Field label="Role">
          <Choice name="role" value={form.role} labels={ROLE_LABELS} onChange={(value) => change({ role: value })} />
        </Field>
      </div>
      <ErrorNotice message={create.error} />
      {created && (
        <Notice>
          Created account {created.id}: {created.name} ({created.email}), {ROLE_LABELS[created.role].toLowerCase()}.
        </Notice>
      )}
      <button type="submit" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create account'}
      </button>
    </form>
  );
}
