import { useEffect, useState } from 'preact/hooks';
import type { CancellationRule, PricingHistory, PricingRules, PricingVersion, Rate, RideType } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf, money } from '../ui/format.ts';
import { keysOf, RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

type Stage = keyof PricingRules['cancellation'];

// The form keeps what was typed; the API checks it (ranges, a minimum below its base, a fee's
// min above its max) and its answer is shown as it is.
interface Draft {
  fares: Record<RideType, Record<keyof Rate, string>>;
  surgeCap: string;
  cancellation: Record<Stage, Record<keyof CancellationRule, string>>;
}

const RATE_LABELS: Record<keyof Rate, string> = { base: 'base fare', perKm: 'per km', perMinute: 'per minute', minimum: 'minimum fare' };
/** The fare table's column heads, short enough for a phone (each field's own label is the long form). */
const RATE_HEADS: Record<keyof Rate, string> = { base: 'Base', perKm: 'Per km', perMinute: 'Per min', minimum: 'Minimum' };
const RULE_LABELS: Record<keyof CancellationRule, string> = { share: 'share of the fare (0 to 1)', min: 'at least (₹)', max: 'at most (₹)' };
const STAGE_LABELS: Record<Stage, string> = { ACCEPTED: 'Driver on the way (ACCEPTED)', PICKED: 'Rider on board (PICKED)' };

const texts = <K extends string>(values: Record<K, number>): Record<K, string> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)])) as Record<K, string>;
const numbers = <K extends string>(values: Record<K, string>): Record<K, number> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Number(value)])) as Record<K, number>;

const draftOf = (rules: PricingRules): Draft => ({
  fares: Object.fromEntries(keysOf(RIDE_TYPE_LABELS).map((type) => [type, texts(rules.fares[type])])) as Draft['fares'],
  surgeCap: String(rules.surgeCap),
  cancellation: { ACCEPTED: texts(rules.cancellation.ACCEPTED), PICKED: texts(rules.cancellation.PICKED) },
});

const rulesOf = (draft: Draft): PricingRules => ({
  fares: Object.fromEntries(keysOf(RIDE_TYPE_LABELS).map((type) => [type, numbers(draft.fares[type])])) as PricingRules['fares'],
  surgeCap: Number(draft.surgeCap),
  cancellation: { ACCEPTED: numbers(draft.cancellation.ACCEPTED), PICKED: numbers(draft.cancellation.PICKED) },
});

/** Prices as versions: edit the fare table, the surge cap and the cancellation rule; rides keep the version they were priced with. */
export function PricingScreen() {
  const api = useApi();
  const [history, setHistory] = useState<PricingHistory | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<PricingVersion | null>(null);
  const load = useAction(async () => {
    const read = await api.admin.pricing();
    setHistory(read);
    setDraft(draftOf(read.current));
  });
  useEffect(() => void load.run(), [api]);
  const save = useAction(async () => {
    setSaved(null);
    const made = await api.admin.savePricing(rulesOf(draft!));
    setSaved(made);
    await load.run();
  });

  const setRate = (type: RideType, key: keyof Rate, value: string) => setDraft((d) => d && { ...d, fares: { ...d.fares, [type]: { ...d.fares[type], [key]: value } } });
  const setRule = (stage: Stage, key: keyof CancellationRule, value: string) =>
    setDraft((d) => d && { ...d, cancellation: { ...d.cancellation, [stage]: { ...d.cancellation[stage], [key]: value } } });

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
          <table class="fares">
            <caption class="visually-hidden">Fare table in rupees, per ride type</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                {keysOf(RATE_HEADS).map((key) => (
                  <th key={key} scope="col">
                    {RATE_HEADS[key]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {keysOf(RIDE_TYPE_LABELS).map((type) => (
                <tr key={type}>
                  <th scope="row">{RIDE_TYPE_LABELS[type]}</th>
                  {keysOf(RATE_LABELS).map((key) => (
                    <td key={key}>
                      <input
                        type="number"
                        step="any"
                        required
                        aria-label={`${RIDE_TYPE_LABELS[type]} ${RATE_LABELS[key]}`}
                        value={draft.fares[type][key]}
                        onInput={(event) => setRate(type, key, event.currentTarget.value)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <Field label="Surge cap" hint="The largest surge multiplier a quote may carry.">
            <input type="number" step="any" required name="surgeCap" value={draft.surgeCap} onInput={(event) => setDraft({ ...draft, surgeCap: event.currentTarget.value })} />
          </Field>
          {keysOf(STAGE_LABELS).map((stage) => (
            <fieldset key={stage} class="bare stack">
              <legend>
                <strong>Cancellation fee: {STAGE_LABELS[stage]}</strong>
              </legend>
              <div class="toolbar">
                {keysOf(RULE_LABELS).map((key) => (
                  <Field key={key} label={`${stage === 'ACCEPTED' ? 'On the way' : 'On board'}: ${RULE_LABELS[key]}`}>
                    <input type="number" step="any" required value={draft.cancellation[stage][key]} onInput={(event) => setRule(stage, key, event.currentTarget.value)} />
                  </Field>
                ))}
              </div>
            </fieldset>
          ))}
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
              · surge cap ×{version.surgeCap}
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
