import { useEffect, useState } from 'preact/hooks';
import type { DriverProfile, ProfileBody } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

const APPROVAL_TEXT: Record<DriverProfile['approval'], string> = {
  pending: 'Waiting for an operator to approve your vehicle: you get ride offers once they do.',
  approved: 'Approved by an operator.',
  rejected: 'Not approved by an operator',
};

const blank: ProfileBody = { vehicleType: 'mini', vehicleNumber: '', vehicleModel: '', acAvailable: false };

interface Props {
  profile: DriverProfile | null;
  /** DRIVER_APPROVAL_REQUIRED: without it no driver waits for an operator, so nothing is said of approval. */
  approvalRequired: boolean;
  onSaved: (profile: DriverProfile) => void;
}

/** The driver's vehicle: offers match its type. */
export function ProfileScreen({ profile, approvalRequired, onSaved }: Props) {
  const api = useApi();
  const [form, setForm] = useState<ProfileBody>(blank);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (profile) setForm({ vehicleType: profile.vehicleType, vehicleNumber: profile.vehicleNumber, vehicleModel: profile.vehicleModel ?? '', acAvailable: profile.acAvailable });
  }, [profile]);
  const save = useAction(async () => {
    onSaved(await api.drivers.saveProfile({ ...form, vehicleNumber: form.vehicleNumber.trim(), vehicleModel: form.vehicleModel?.trim() || null }));
    setSaved(true);
  });
  const change = (patch: Partial<ProfileBody>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  return (
    <form
      class="stack"
      aria-labelledby="profile-title"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h2 id="profile-title">Your vehicle</h2>
      {!profile && <Notice kind="warn">Add your vehicle to receive ride offers.</Notice>}
      {profile && !approvalRequired && <Notice>You get ride offers as soon as you go online.</Notice>}
      {profile && approvalRequired && (
        <Notice kind={profile.approval === 'rejected' ? 'warn' : 'info'}>
          {APPROVAL_TEXT[profile.approval]}
          {profile.approval === 'rejected' && profile.approvalReason ? `: ${profile.approvalReason}` : ''}
        </Notice>
      )}
      <div class="card stack">
        <Field label="Vehicle type" hint="You are offered rides of this type.">
          <Choice name="vehicleType" value={form.vehicleType} labels={RIDE_TYPE_LABELS} onChange={(value) => change({ vehicleType: value })} />
        </Field>
        <Field label="Registration number" hint="As on the plate, e.g. KA01AB1234.">
          <input name="vehicleNumber" required minLength={4} maxLength={16} value={form.vehicleNumber} onInput={(event) => change({ vehicleNumber: event.currentTarget.value })} />
        </Field>
        <Field label="Model (optional)">
          <input name="vehicleModel" maxLength={60} value={form.vehicleModel ?? ''} onInput={(event) => change({ vehicleModel: event.currentTarget.value })} />
        </Field>
        <label class="check">
          <input type="checkbox" name="acAvailable" checked={form.acAvailable} onChange={(event) => change({ acAvailable: event.currentTarget.checked })} />
          Air conditioning
        </label>
      </div>
      <ErrorNotice message={save.error} />
      {saved && <Notice>Vehicle saved.</Notice>}
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save vehicle'}
      </button>
    </form>
  );
}
