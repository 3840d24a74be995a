import { useEffect, useState } from 'preact/hooks';
import type { DriverProfile, ProfileBody } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { labelsOf, t } from '../i18n/i18n.ts';

const APPROVAL_TEXT = labelsOf('approval.', ['pending', 'approved', 'rejected'] as const satisfies ReadonlyArray<DriverProfile['approval']>);

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
      <h2 id="profile-title">{t('profile.title')}</h2>
      {!profile && <Notice kind="warn">{t('profile.addVehicle')}</Notice>}
      {profile && !approvalRequired && <Notice>{t('profile.offersWhenOnline')}</Notice>}
      {profile && approvalRequired && (
        <Notice kind={profile.approval === 'rejected' ? 'warn' : 'info'}>
          {APPROVAL_TEXT[profile.approval]}
          {profile.approval === 'rejected' && profile.approvalReason ? `: ${profile.approvalReason}` : ''}
        </Notice>
      )}
      <div class="card stack">
        <Field label={t('profile.type')} hint={t('profile.typeHint')}>
          <Choice name="vehicleType" value={form.vehicleType} labels={RIDE_TYPE_LABELS} onChange={(value) => change({ vehicleType: value })} />
        </Field>
        <Field label={t('profile.number')} hint={t('profile.numberHint')}>
          <input name="vehicleNumber" required minLength={4} maxLength={16} value={form.vehicleNumber} onInput={(event) => change({ vehicleNumber: event.currentTarget.value })} />
        </Field>
        <Field label={t('profile.model')}>
          <input name="vehicleModel" maxLength={60} value={form.vehicleModel ?? ''} onInput={(event) => change({ vehicleModel: event.currentTarget.value })} />
        </Field>
        <label class="check">
          <input type="checkbox" name="acAvailable" checked={form.acAvailable} onChange={(event) => change({ acAvailable: event.currentTarget.checked })} />
          {t('profile.ac')}
        </label>
      </div>
      <ErrorNotice message={save.error} />
      {saved && <Notice>{t('profile.saved')}</Notice>}
      <button type="submit" disabled={save.busy}>
        {save.busy ? t('profile.saving') : t('profile.save')}
      </button>
    </form>
  );
}
