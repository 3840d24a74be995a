import { useEffect, useState } from 'preact/hooks';
import type { Settings, SettingsUpdate } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { labelsOf, t } from '../i18n/i18n.ts';
import { LanguagePicker } from '../ui/localized.tsx';

// Words for the settings' closed lists, typed by the server's lists.
const PAYMENT_METHODS: Record<Settings['defaultPaymentMethod'], string> = {
  get cash() {
    return PAYMENT_MODE_LABELS.CASH;
  },
  get upi() {
    return PAYMENT_MODE_LABELS.UPI;
  },
  get card() {
    return PAYMENT_MODE_LABELS.CARD;
  },
  get wallet() {
    return PAYMENT_MODE_LABELS.WALLET;
  },
  get netbanking() {
    return PAYMENT_MODE_LABELS.NETBANKING;
  },
};
const MAP_STYLES = labelsOf('mapStyle.', ['standard', 'satellite', 'terrain', 'dark'] as const satisfies ReadonlyArray<Settings['mapStyle']>);
const AC = labelsOf('ac.', ['any', 'ac', 'non_ac'] as const satisfies ReadonlyArray<Settings['acPreference']>);

type Switch = { [K in keyof SettingsUpdate]-?: SettingsUpdate[K] extends boolean | undefined ? K : never }[keyof SettingsUpdate];

const SWITCHES: Array<Exclude<Switch, 'deleteAccountRequested'>> = ['tripSharingDefault', 'hidePhoneNumber', 'quietRide', 'autoTipEnabled', 'invoiceEmailEnabled', 'avoidTolls', 'avoidHighways'];

/** GET and PUT /user-settings as a form. */
export function SettingsScreen() {
  const api = useApi();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [saved, setSaved] = useState(false);
  const load = useAction(async () => setSettings(await api.settings.get()));
  useEffect(() => void load.run(), [api]);
  const save = useAction(async (changes: SettingsUpdate) => {
    setSettings(await api.settings.update(changes));
    setSaved(true);
  });
  if (!settings) return <ErrorNotice message={load.error} />;
  const change = (patch: SettingsUpdate) => {
    setSaved(false);
    setSettings({ ...settings, ...patch });
  };
  return (
    <form
      class="stack"
      aria-labelledby="settings-title"
      onSubmit={(event) => {
        event.preventDefault();
        // The service ignores the read-only fields sent back with the rest.
        void save.run(settings);
      }}
    >
      <h2 id="settings-title">{t('settings.title')}</h2>
      <div class="card stack">
        <LanguagePicker />
        <Field label={t('settings.defaultPayment')}>
          <Choice name="defaultPaymentMethod" value={settings.defaultPaymentMethod} labels={PAYMENT_METHODS} onChange={(value) => change({ defaultPaymentMethod: value })} />
        </Field>
        <Field label={t('settings.preferredVehicle')}>
          <Choice name="preferredVehicleType" value={settings.preferredVehicleType} labels={RIDE_TYPE_LABELS} onChange={(value) => change({ preferredVehicleType: value })} />
        </Field>
        <Field label={t('settings.ac')}>
          <Choice name="acPreference" value={settings.acPreference} labels={AC} onChange={(value) => change({ acPreference: value })} />
        </Field>
        <Field label={t('settings.mapStyle')}>
          <Choice name="mapStyle" value={settings.mapStyle} labels={MAP_STYLES} onChange={(value) => change({ mapStyle: value })} />
        </Field>
        <Field label={t('settings.emergencyContact')} hint={t('settings.emergencyHint')}>
          <input name="emergencyContact" maxLength={40} value={settings.emergencyContact} onInput={(e) => change({ emergencyContact: e.currentTarget.value })} />
        </Field>
        <Field label={t('settings.voice')} hint={t('settings.voiceHint')}>
          <input name="navigationVoiceLanguage" maxLength={12} value={settings.navigationVoiceLanguage} onInput={(e) => change({ navigationVoiceLanguage: e.currentTarget.value })} />
        </Field>
      </div>
      <fieldset class="card stack">
        <legend>
          <h3>{t('settings.preferences')}</h3>
        </legend>
        {SWITCHES.map((key) => (
          <label key={key} class="check">
            <input type="checkbox" name={key} checked={settings[key]} onChange={(e) => change({ [key]: e.currentTarget.checked })} />
            {t(`settings.${key}`)}
          </label>
        ))}
      </fieldset>
      <div class="card stack">
        <label class="check">
          <input type="checkbox" name="deleteAccountRequested" checked={settings.deleteAccountRequested} onChange={(e) => change({ deleteAccountRequested: e.currentTarget.checked })} />
          {t('settings.deleteAccount')}
        </label>
        <p class="muted flush">{t('settings.deleteNote')}</p>
      </div>
      <ErrorNotice message={save.error} />
      {saved && <Notice>{t('settings.saved')}</Notice>}
      <button type="submit" disabled={save.busy}>
        {save.busy ? t('settings.saving') : t('settings.save')}
      </button>
    </form>
  );
}
