import { useEffect, useState } from 'preact/hooks';
import type { Settings, SettingsUpdate } from '../api/types.ts';
import { Choice, ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

// Words for the settings' closed lists, typed by the server's lists.
const PAYMENT_METHODS: Record<Settings['defaultPaymentMethod'], string> = { cash: 'Cash', upi: 'UPI', card: 'Card', wallet: 'Wallet', netbanking: 'Net banking' };
const MAP_STYLES: Record<Settings['mapStyle'], string> = { standard: 'Standard', satellite: 'Satellite', terrain: 'Terrain', dark: 'Dark' };
const AC: Record<Settings['acPreference'], string> = { any: 'No preference', ac: 'AC', non_ac: 'Non-AC' };

type Switch = { [K in keyof SettingsUpdate]-?: SettingsUpdate[K] extends boolean | undefined ? K : never }[keyof SettingsUpdate];

const SWITCHES: Array<[Switch, string]> = [
  ['tripSharingDefault', 'Share my trip status by default'],
  ['hidePhoneNumber', 'Hide my phone number from drivers'],
  ['quietRide', 'Prefer a quiet ride'],
  ['autoTipEnabled', 'Tip automatically'],
  ['invoiceEmailEnabled', 'E-mail me invoices'],
  ['avoidTolls', 'Avoid tolls'],
  ['avoidHighways', 'Avoid highways'],
];

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
      <h2 id="settings-title">Settings</h2>
      <div class="card stack">
        <Field label="Default payment">
          <Choice name="defaultPaymentMethod" value={settings.defaultPaymentMethod} labels={PAYMENT_METHODS} onChange={(value) => change({ defaultPaymentMethod: value })} />
        </Field>
        <Field label="Preferred vehicle">
          <Choice name="preferredVehicleType" value={settings.preferredVehicleType} labels={RIDE_TYPE_LABELS} onChange={(value) => change({ preferredVehicleType: value })} />
        </Field>
        <Field label="Air conditioning">
          <Choice name="acPreference" value={settings.acPreference} labels={AC} onChange={(value) => change({ acPreference: value })} />
        </Field>
        <Field label="Map style">
          <Choice name="mapStyle" value={settings.mapStyle} labels={MAP_STYLES} onChange={(value) => change({ mapStyle: value })} />
        </Field>
        <Field label="Emergency contact" hint="An e-mail address or a phone number, up to 40 characters: an SOS sends them a link to follow your ride.">
          <input name="emergencyContact" maxLength={40} value={settings.emergencyContact} onInput={(e) => change({ emergencyContact: e.currentTarget.value })} />
        </Field>
        <Field label="Navigation voice language" hint="A language tag such as en or hi-IN.">
          <input name="navigationVoiceLanguage" maxLength={12} value={settings.navigationVoiceLanguage} onInput={(e) => change({ navigationVoiceLanguage: e.currentTarget.value })} />
        </Field>
      </div>
      <fieldset class="card stack">
        <legend>
          <h3>Preferences</h3>
        </legend>
        {SWITCHES.map(([key, label]) => (
          <label key={key} class="check">
            <input type="checkbox" name={key} checked={settings[key]} onChange={(e) => change({ [key]: e.currentTarget.checked })} />
            {label}
          </label>
        ))}
      </fieldset>
      <div class="card stack">
        <label class="check">
          <input type="checkbox" name="deleteAccountRequested" checked={settings.deleteAccountRequested} onChange={(e) => change({ deleteAccountRequested: e.currentTarget.checked })} />
          Ask for my account to be deleted
        </label>
        <p class="muted flush">An operator erases your personal data; your rides stay for accounting.</p>
      </div>
      <ErrorNotice message={save.error} />
      {saved && <Notice>Settings saved.</Notice>}
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
