import { useEffect, useState } from 'preact/hooks';
import type { CancellationRule, PricingHistory, PricingRules, PricingVersion, WhatIfJob } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf, money } from '../ui/format.ts';
import { keysOf, RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { WhatIfPanel } from './what-if-panel.tsx';

type Stage = keyof PricingRules['cancellation'];

// The form keeps what was typed, one text per field of the document keyed by its path
// (`fares.mini.waiting.perMinute`); the API checks it (ranges, a minimum below its base, a fee's
// min above its max, a compliance profile's rules) and its answer is shown as it is.
type Draft = Record<string, string>;

/** Per ride type, two tables: the fare itself, then stops, waiting and the night window. */
const FARE_COLUMNS: Record<string, { head: string; label: string }> = {
  base: { head: 'Base', label: 'base fare' },
  baseKm: { head: 'Base km', label: 'km the base covers' },
  perKm: { head: 'Per km', label: 'per km' },
  perMinute: { head: 'Per min', label: 'per minute' },
  minimum: { head: 'Minimum', label: 'minimum fare' },
};
const EXTRA_COLUMNS: Record<string, { head: string; label: string; text?: true }> = {
  perStop: { head: 'Stop', label: 'per stop' },
  'waiting.freeMinutes': { head: 'Free wait', label: 'free waiting minutes' },
  'waiting.perMinute': { head: 'Wait /min', label: 'waiting per minute' },
  'night.start': { head: 'Night from', label: 'night from (HH:MM)', text: true },
  'night.end': { head: 'Night to', label: 'night until (HH:MM)', text: true },
  'night.multiplier': { head: 'Night ×', label: 'night multiplier' },
};
const CITY_FIELDS: Record<string, { label: string; hint: string }> = {
  surgeFloor: { label: 'Surge floor', hint: 'The smallest surge multiplier a quote may carry.' },
  surgeCap: { label: 'Surge cap', hint: 'The largest surge multiplier a quote may carry.' },
  driverShare: { label: "Driver's share (0 to 1)", hint: "The share of a fare that is the driver's; tolls and parking pass through whole." },
  'tollsAndParking.capPerRide': { label: 'Tolls and parking cap per ride (₹)', hint: 'What a driver may add to one ride, passed through at cost.' },
};
const RULE_LABELS: Record<keyof CancellationRule, string> = { share: 'share of the fare (0 to 1)', min: 'at least (₹)', max: 'at most (₹)' };
const STAGE_LABELS: Record<Stage | 'driver', string> = {
  ACCEPTED: 'Rider cancels, driver on the way (ACCEPTED)',
  PICKED: 'Rider cancels, on board (PICKED)',
  driver: 'Driver cancels an accepted ride (penalty)',
};
const STAGE_PREFIX: Record<Stage | 'driver', string> = { ACCEPTED: 'cancellation.ACCEPTED', PICKED: 'cancellation.PICKED', driver: 'driverCancellation' };
const STAGE_SHORT: Record<Stage | 'driver', string> = { ACCEPTED: 'On the way', PICKED: 'On board', driver: 'Driver penalty' };
/** Fields kept as text, not numbers. */
const TEXT_FIELDS = /\.(start|end)$|^compliance$|^validCancellationReasons$/;

function flatten(value: unknown, prefix: string, into: Draft): Draft {
  if (Array.isArray(value)) into[prefix] = value.join('\n');
  else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  else into[prefix] = String(value);
  return into;
}

const draftOf = ({ fares, surgeFloor, surgeCap, driverShare, tollsAndParking, cancellation, driverCancellation, validCancellationReasons, compliance }: PricingRules): Draft => ({
  ...flatten({ fares, surgeFloor, surgeCap, driverShare, tollsAndParking, cancellation, driverCancellation, validCancellationReasons }, '', {}),
  compliance: compliance ?? '',
});

function rulesOf(draft: Draft): PricingRules {
  const rules: Record<string, unknown> = {};
  for (const [path, text] of Object.entries(draft)) {
    if (path === 'compliance' && text === '') continue;
    const value = path === 'validCancellationReasons' ? text.split('\n').map((line) => line.trim()).filter(Boolean) : TEXT_FIELDS.test(path) ? text : Number(text);
    const keys = path.split('.');
    let node = rules;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[keys.at(-1)!] = value;
  }
  return rules as PricingRules;
}

/** Prices as versions: edit the whole fare policy (fares, waiting, night, surge, share, tolls, cancellations, compliance); rides keep the version they were priced with. */
export function PricingScreen() {
  const api = useApi();
  const [history, setHistory] = useState<PricingHistory | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<PricingVersion | null>(null);
  /** The last finished what-if replay, and whether the version saved next cites it. */
  const [replay, setReplay] = useState<WhatIfJob | null>(null);
  const [cite, setCite] = useState(true);
  const load = useAction(async () => {
    const read = await api.admin.pricing();
    setHistory(read);
    setDraft(draftOf(read.current));
  });
  useEffect(() => void load.run(), [api]);
  const save = useAction(async () => {
    setSaved(null);
    const made = await api.admin.savePricing({ ...rulesOf(draft!), ...(replay && cite ? { whatIfId: replay.id } : {}) });
    setSaved(made);
    await load.run();
  });

  const set = (path: string, value: string) => setDraft((d) => d && { ...d, [path]: value });

  return (
    <section class="stack" aria-labelledby="pricing-title">
      <h2 id="pricing-title">Pricing</h2>
      <ErrorNotice message={load.error} />
      {history && draft && (
        <form
          class="card stack"
          aria-labelledby="pricing-form-title"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <h3 id="pricing-form-title" class="flush">
            New version (now in force: version {history.current.version})
          </h3>
          <FareTable caption="Fare table in rupees, per ride type" columns={FARE_COLUMNS} draft={draft} onInput={set} />
          <FareTable caption="Per stop, waiting at the pickup (free minutes, then per minute) and the night window (SERVICE_TIMEZONE), per ride type" columns={EXTRA_COLUMNS} draft={draft} onInput={set} />
          <div class="toolbar">
            {Object.entries(CITY_FIELDS).map(([path, { label, hint }]) => (
              <Field key={path} label={label} hint={hint}>
                <input type="number" step="any" required name={path} value={draft[path]} onInput={(event) => set(path, event.currentTarget.value)} />
              </Field>
            ))}
          </div>
          {keysOf(STAGE_LABELS).map((stage) => (
            <fieldset key={stage} class="bare stack">
              <legend>
                <strong>{stage === 'driver' ? STAGE_LABELS[stage] : `Cancellation fee: ${STAGE_LABELS[stage]}`}</strong>
              </legend>
              <div class="toolbar">
                {keysOf(RULE_LABELS).map((key) => (
                  <Field key={key} label={`${STAGE_SHORT[stage]}: ${RULE_LABELS[key]}`}>
                    <input type="number" step="any" required value={draft[`${STAGE_PREFIX[stage]}.${key}`]} onInput={(event) => set(`${STAGE_PREFIX[stage]}.${key}`, event.currentTarget.value)} />
                  </Field>
                ))}
              </div>
            </fieldset>
          ))}
          <Field label="Valid cancellation reasons" hint="One a line: a cancellation giving one of these waives the rider's fee and the driver's penalty.">
            <textarea name="validCancellationReasons" rows={3} value={draft.validCancellationReasons} onInput={(event) => set('validCancellationReasons', event.currentTarget.value)} />
          </Field>
          <Field label="Compliance profile" hint="A version naming a profile cannot be saved while it breaks one of its rules.">
            <select name="compliance" value={draft.compliance} onChange={(event) => set('compliance', event.currentTarget.value)}>
              <option value="">None</option>
              <option value="IN-MVAG-2025">IN-MVAG-2025 (India, Motor Vehicle Aggregator Guidelines 2025)</option>
            </select>
          </Field>
          {replay && (
            <label class="row">
              <input type="checkbox" checked={cite} onChange={(event) => setCite(event.currentTarget.checked)} /> Cite the what-if replay of {dateTimeOf(replay.from)} to {dateTimeOf(replay.to)} in this version's audit entry
            </label>
          )}
          <ErrorNotice message={save.error} />
          {saved && <Notice>Version {saved.version} saved: every instance quotes it within a second.</Notice>}
          <div class="row">
            <button type="submit" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save as a new version'}
            </button>
            <button type="button" class="secondary" onClick={() => setDraft(draftOf(history.current))}>
              Undo my changes
            </button>
          </div>
        </form>
      )}
      {history && <WhatIfPanel candidate={draft && rulesOf(draft)} onDone={(job) => (setReplay(job), setCite(true))} />}
      {history && <Versions history={history} onCopy={(version) => setDraft(draftOf(version))} />}
    </section>
  );
}

function Versions({ history, onCopy }: { history: PricingHistory; onCopy: (version: PricingVersion) => void }) {
  return (
    <div class="card stack">
      <h3 class="flush">Versions</h3>
      <ul class="list" aria-label="Pricing versions, newest first">
        {history.versions.map((version) => (
          <li key={version.version} class="stack" data-version={version.version}>
            <div class="row spread">
              <strong>
                Version {version.version}
                {version.version === history.current.version && ' (in force)'}
              </strong>
              <span class="muted">
                {dateTimeOf(version.createdAt)} · {version.createdBy === null ? 'first prices' : `operator ${version.createdBy}`}
              </span>
            </div>
            <span class="muted">
              {keysOf(RIDE_TYPE_LABELS)
                .map((type) => `${RIDE_TYPE_LABELS[type]} ${money(version.fares[type].base)} + ${money(version.fares[type].perKm)}/km`)
                .join(' · ')}{' '}
              · surge ×{version.surgeFloor}–×{version.surgeCap} · driver {Math.round(version.driverShare * 100)} %{version.compliance ? ` · ${version.compliance}` : ''}
            </span>
            {version.version !== history.current.version && (
              <button type="button" class="secondary" onClick={() => onCopy(version)}>
                Copy version {version.version} into the form
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One row per ride type, one input per column (a path under `fares.<type>`). */
function FareTable({ caption, columns, draft, onInput }: { caption: string; columns: Record<string, { head: string; label: string; text?: true }>; draft: Draft; onInput: (path: string, value: string) => void }) {
  return (
    <table class="fares">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          {Object.entries(columns).map(([key, { head }]) => (
            <th key={key} scope="col">
              {head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {keysOf(RIDE_TYPE_LABELS).map((type) => (
          <tr key={type}>
            <th scope="row">{RIDE_TYPE_LABELS[type]}</th>
            {Object.entries(columns).map(([key, { label, text }]) => (
              <td key={key}>
                {text ? (
                  <input
                    type="text"
                    pattern="[0-2][0-9]:[0-5][0-9]"
                    required
                    aria-label={`${RIDE_TYPE_LABELS[type]} ${label}`}
                    value={draft[`fares.${type}.${key}`]}
                    onInput={(event) => onInput(`fares.${type}.${key}`, event.currentTarget.value)}
                  />
                ) : (
                  <input
                    type="number"
                    step="any"
                    required
                    aria-label={`${RIDE_TYPE_LABELS[type]} ${label}`}
                    value={draft[`fares.${type}.${key}`]}
                    onInput={(event) => onInput(`fares.${type}.${key}`, event.currentTarget.value)}
                  />
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
