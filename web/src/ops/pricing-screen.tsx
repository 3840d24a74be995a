import { useEffect, useState } from 'preact/hooks';
import type { CancellationRule, PricingHistory, PricingRules, PricingVersion, WhatIfJob } from '../api/types.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
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

/** Per ride type, two tables: the fare itself, then stops, waiting and the night window; each column its head and its inputs' label ({type} in it). */
interface Column {
  head: MessageKey;
  label: MessageKey;
  text?: true;
}
const FARE_COLUMNS: Record<string, Column> = {
  base: { head: 'ops.pricing.column.base', label: 'ops.pricing.input.base' },
  baseKm: { head: 'ops.pricing.column.baseKm', label: 'ops.pricing.input.baseKm' },
  perKm: { head: 'ops.pricing.column.perKm', label: 'ops.pricing.input.perKm' },
  perMinute: { head: 'ops.pricing.column.perMinute', label: 'ops.pricing.input.perMinute' },
  minimum: { head: 'ops.pricing.column.minimum', label: 'ops.pricing.input.minimum' },
};
const EXTRA_COLUMNS: Record<string, Column> = {
  perStop: { head: 'ops.pricing.column.perStop', label: 'ops.pricing.input.perStop' },
  'waiting.freeMinutes': { head: 'ops.pricing.column.freeWait', label: 'ops.pricing.input.freeWait' },
  'waiting.perMinute': { head: 'ops.pricing.column.waitPerMinute', label: 'ops.pricing.input.waitPerMinute' },
  'night.start': { head: 'ops.pricing.column.nightStart', label: 'ops.pricing.input.nightStart', text: true },
  'night.end': { head: 'ops.pricing.column.nightEnd', label: 'ops.pricing.input.nightEnd', text: true },
  'night.multiplier': { head: 'ops.pricing.column.nightMultiplier', label: 'ops.pricing.input.nightMultiplier' },
};
const CITY_FIELDS: Record<string, { label: MessageKey; hint: MessageKey }> = {
  surgeFloor: { label: 'ops.pricing.surgeFloor', hint: 'ops.pricing.surgeFloorHint' },
  surgeCap: { label: 'ops.pricing.surgeCap', hint: 'ops.pricing.surgeCapHint' },
  driverShare: { label: 'ops.pricing.driverShare', hint: 'ops.pricing.driverShareHint' },
  'tollsAndParking.capPerRide': { label: 'ops.pricing.tollsCap', hint: 'ops.pricing.tollsCapHint' },
};
const RULES: ReadonlyArray<keyof CancellationRule> = ['share', 'min', 'max'];
const STAGES: ReadonlyArray<Stage | 'driver'> = ['ACCEPTED', 'PICKED', 'driver'];
const STAGE_PREFIX: Record<Stage | 'driver', string> = { ACCEPTED: 'cancellation.ACCEPTED', PICKED: 'cancellation.PICKED', driver: 'driverCancellation' };
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
      <h2 id="pricing-title">{t('ops.pricing.title')}</h2>
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
            {t('ops.pricing.newVersion', { version: history.current.version })}
          </h3>
          <FareTable caption={t('ops.pricing.fareCaption')} columns={FARE_COLUMNS} draft={draft} onInput={set} />
          <FareTable caption={t('ops.pricing.extraCaption')} columns={EXTRA_COLUMNS} draft={draft} onInput={set} />
          <div class="toolbar">
            {Object.entries(CITY_FIELDS).map(([path, { label, hint }]) => (
              <Field key={path} label={t(label)} hint={t(hint)}>
                <input type="number" step="any" required name={path} value={draft[path]} onInput={(event) => set(path, event.currentTarget.value)} />
              </Field>
            ))}
          </div>
          {STAGES.map((stage) => (
            <fieldset key={stage} class="bare stack">
              <legend>
                <strong>{stage === 'driver' ? t('ops.pricing.stage.driver') : t('ops.pricing.stageFee', { stage: t(`ops.pricing.stage.${stage}`) })}</strong>
              </legend>
              <div class="toolbar">
                {RULES.map((key) => (
                  <Field key={key} label={t(`ops.pricing.rule.${key}`, { stage: t(`ops.pricing.short.${stage}`) })}>
                    <input type="number" step="any" required value={draft[`${STAGE_PREFIX[stage]}.${key}`]} onInput={(event) => set(`${STAGE_PREFIX[stage]}.${key}`, event.currentTarget.value)} />
                  </Field>
                ))}
              </div>
            </fieldset>
          ))}
          <Field label={t('ops.pricing.reasons')} hint={t('ops.pricing.reasonsHint')}>
            <textarea name="validCancellationReasons" rows={3} value={draft.validCancellationReasons} onInput={(event) => set('validCancellationReasons', event.currentTarget.value)} />
          </Field>
          <Field label={t('ops.pricing.compliance')} hint={t('ops.pricing.complianceHint')}>
            <select name="compliance" value={draft.compliance} onChange={(event) => set('compliance', event.currentTarget.value)}>
              <option value="">{t('ops.pricing.complianceNone')}</option>
              <option value="IN-MVAG-2025">{t('ops.pricing.complianceMvag')}</option>
            </select>
          </Field>
          {replay && (
            <label class="row">
              <input type="checkbox" checked={cite} onChange={(event) => setCite(event.currentTarget.checked)} />{' '}
              {t('ops.pricing.cite', { from: dateTimeOf(replay.from), to: dateTimeOf(replay.to) })}
            </label>
          )}
          <ErrorNotice message={save.error} />
          {saved && <Notice>{t('ops.pricing.saved', { version: saved.version })}</Notice>}
          <div class="row">
            <button type="submit" disabled={save.busy}>
              {save.busy ? t('ops.pricing.saving') : t('ops.pricing.save')}
            </button>
            <button type="button" class="secondary" onClick={() => setDraft(draftOf(history.current))}>
              {t('ops.pricing.undo')}
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
      <h3 class="flush">{t('ops.pricing.versions')}</h3>
      <ul class="list" aria-label={t('ops.pricing.versionsAria')}>
        {history.versions.map((version) => (
          <li key={version.version} class="stack" data-version={version.version}>
            <div class="row spread">
              <strong>{t(version.version === history.current.version ? 'ops.pricing.inForce' : 'ops.pricing.version', { version: version.version })}</strong>
              <span class="muted">
                {dateTimeOf(version.createdAt)} · {version.createdBy === null ? t('ops.pricing.firstPrices') : t('ops.pricing.byOperator', { id: version.createdBy })}
              </span>
            </div>
            <span class="muted">
              {t('ops.pricing.summary', {
                fares: keysOf(RIDE_TYPE_LABELS)
                  .map((type) => t('ops.pricing.typeFare', { type: RIDE_TYPE_LABELS[type], base: money(version.fares[type].base), perKm: money(version.fares[type].perKm) }))
                  .join(' · '),
                floor: version.surgeFloor,
                cap: version.surgeCap,
                share: Math.round(version.driverShare * 100),
              })}
              {version.compliance ? ` · ${version.compliance}` : ''}
            </span>
            {version.version !== history.current.version && (
              <button type="button" class="secondary" onClick={() => onCopy(version)}>
                {t('ops.pricing.copy', { version: version.version })}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One row per ride type, one input per column (a path under `fares.<type>`). */
function FareTable({ caption, columns, draft, onInput }: { caption: string; columns: Record<string, Column>; draft: Draft; onInput: (path: string, value: string) => void }) {
  return (
    <table class="fares">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('ops.pricing.type')}</th>
          {Object.entries(columns).map(([key, { head }]) => (
            <th key={key} scope="col">
              {t(head)}
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
                    aria-label={t(label, { type: RIDE_TYPE_LABELS[type] })}
                    value={draft[`fares.${type}.${key}`]}
                    onInput={(event) => onInput(`fares.${type}.${key}`, event.currentTarget.value)}
                  />
                ) : (
                  <input
                    type="number"
                    step="any"
                    required
                    aria-label={t(label, { type: RIDE_TYPE_LABELS[type] })}
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
