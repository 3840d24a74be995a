import { useEffect, useRef, useState } from 'preact/hooks';
import type { PricingRules, WhatIfBody, WhatIfJob } from '../api/types.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { CHARTED, ColumnHeads, COLUMNS, FIGURES, HourChart, Legend, shown, type Column, type Figures } from './what-if-charts.tsx';

// The console's what-if panel (decisions.md "What-if replay"): a period (the last 7 days unless
// changed) replayed as it ran and with the pricing as edited and/or other dispatch settings, then the
// three columns and the hour-by-hour charts. A finished replay can be cited when the version is saved.

type Dispatch = NonNullable<WhatIfBody['dispatch']>;
const DISPATCH_FIELDS: Record<Exclude<keyof Dispatch, 'mode'>, { label: MessageKey; min: number; max: number }> = {
  batchMs: { label: 'ops.whatIf.batchMs', min: 50, max: 60_000 },
  offerTtlSeconds: { label: 'ops.whatIf.offerTtlSeconds', min: 1, max: 600 },
  maxSeconds: { label: 'ops.whatIf.maxSeconds', min: 10, max: 3_600 },
};
/** A dispatch mode in words (the API's own names). */
const modeName = (mode: string) => (mode === 'nearest' || mode === 'batched' ? t(`ops.whatIf.modeName.${mode}`) : mode);
const POLL_MS = 1_000;
const DAY_MS = 86_400_000;

/** `datetime-local`'s value for a moment, in the browser's time zone. */
const localInput = (at: number) => {
  const date = new Date(at - new Date(at).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
};

export function WhatIfPanel({ candidate, onDone }: { candidate: PricingRules | null; onDone: (job: WhatIfJob) => void }) {
  const api = useApi();
  // The inputs hold whole minutes: up to the next one, so the last requests are in.
  const [to, setTo] = useState(() => localInput(Date.now() + 60_000));
  const [from, setFrom] = useState(() => localInput(Date.now() + 60_000 - 7 * DAY_MS));
  const [tryPricing, setTryPricing] = useState(true);
  const [dispatch, setDispatch] = useState<Record<string, string>>({ mode: '' });
  const [job, setJob] = useState<WhatIfJob | null>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  const run = useAction(async () => {
    setJob(null);
    const body: WhatIfBody = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    if (tryPricing && candidate) body.pricing = candidate;
    const settings: Dispatch = {};
    if (dispatch.mode === 'nearest' || dispatch.mode === 'batched') settings.mode = dispatch.mode;
    for (const key of Object.keys(DISPATCH_FIELDS) as Array<keyof typeof DISPATCH_FIELDS>) if (dispatch[key]) settings[key] = Number(dispatch[key]);
    if (Object.keys(settings).length > 0) body.dispatch = settings;
    let current = await api.admin.whatIf(body);
    setJob(current);
    while (current.status === 'running' && mounted.current) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await api.admin.whatIfJob(current.id);
      if (mounted.current) setJob(current);
    }
    if (current.status === 'failed') throw new Error(t('ops.whatIf.failed', { reason: current.error ?? t('ops.whatIf.noReason') }));
    if (current.status === 'done') onDone(current);
  });

  return (
    <section class="card stack" aria-labelledby="what-if-title">
      <h3 id="what-if-title" class="flush">
        {t('ops.whatIf.title')}
      </h3>
      <p class="muted flush">{t('ops.whatIf.note')}</p>
      <form
        class="stack"
        aria-label={t('ops.whatIf.form')}
        onSubmit={(event) => {
          event.preventDefault();
          void run.run();
        }}
      >
        <div class="toolbar">
          <Field label={t('ops.whatIf.from')}>
            <input type="datetime-local" required value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
          </Field>
          <Field label={t('ops.whatIf.to')}>
            <input type="datetime-local" required value={to} onInput={(event) => setTo(event.currentTarget.value)} />
          </Field>
        </div>
        <label class="row">
          <input type="checkbox" checked={tryPricing} onChange={(event) => setTryPricing(event.currentTarget.checked)} /> {t('ops.whatIf.tryPricing')}
        </label>
        <fieldset class="bare stack">
          <legend>
            <strong>{t('ops.whatIf.dispatch')}</strong> <span class="muted">{t('ops.whatIf.dispatchEmpty')}</span>
          </legend>
          <div class="toolbar">
            <Field label={t('ops.whatIf.mode')}>
              <select value={dispatch.mode} onChange={(event) => setDispatch((d) => ({ ...d, mode: event.currentTarget.value }))}>
                <option value="">{t('ops.whatIf.modeNow')}</option>
                <option value="nearest">{t('ops.whatIf.modeNearest')}</option>
                <option value="batched">{t('ops.whatIf.modeBatched')}</option>
              </select>
            </Field>
            {(Object.keys(DISPATCH_FIELDS) as Array<keyof typeof DISPATCH_FIELDS>).map((key) => (
              <Field key={key} label={t(DISPATCH_FIELDS[key].label)}>
                <input type="number" min={DISPATCH_FIELDS[key].min} max={DISPATCH_FIELDS[key].max} step="1" value={dispatch[key] ?? ''} onInput={(event) => setDispatch((d) => ({ ...d, [key]: event.currentTarget.value }))} />
              </Field>
            ))}
          </div>
        </fieldset>
        <ErrorNotice message={run.error} />
        <div class="row">
          <button type="submit" disabled={run.busy}>
            {run.busy ? t('ops.whatIf.replaying') : t('ops.whatIf.run')}
          </button>
        </div>
      </form>
      {job?.status === 'running' && <Progress job={job} />}
      {job?.status === 'done' && job.totals && <Results job={job} totals={job.totals} />}
    </section>
  );
}

function Progress({ job }: { job: WhatIfJob }) {
  const percent = Math.round(job.progress * 100);
  return (
    <div class="stack">
      <progress max={100} value={percent} aria-label={t('ops.whatIf.progress')} />
      <Notice>{t('ops.whatIf.progressNote', { requests: job.inputs.requests, percent })}</Notice>
    </div>
  );
}

function Results({ job, totals }: { job: WhatIfJob; totals: NonNullable<WhatIfJob['totals']> }) {
  const { inputs } = job;
  return (
    <div class="stack" data-what-if={job.id}>
      <Notice>
        {t('ops.whatIf.replayed', {
          from: dateTimeOf(job.from),
          to: dateTimeOf(job.to),
          requests: inputs.requests,
          samples: inputs.samples,
          version: inputs.asWasPricingVersion,
          mode: modeName(inputs.asWasDispatch.mode ?? '—'),
          batchMs: inputs.asWasDispatch.batchMs ?? '—',
          candidate: inputs.candidatePricing ? t('ops.whatIf.asEdited') : t('ops.whatIf.pricingVersion', { version: inputs.asWasPricingVersion }),
          candidateMode: modeName(inputs.candidateDispatch.mode ?? '—'),
          candidateBatchMs: inputs.candidateDispatch.batchMs ?? '—',
        })}
      </Notice>
      <table class="figures">
        <caption>{t('ops.whatIf.total')}</caption>
        <ColumnHeads first={t('ops.whatIf.figure')} />
        <tbody>
          {(Object.keys(FIGURES) as Array<keyof Figures>).map((figure) => (
            <tr key={figure} data-figure={figure}>
              <th scope="row">{t(FIGURES[figure].label)}</th>
              {(Object.keys(COLUMNS) as Column[]).map((column) => (
                <td key={column} data-column={column}>
                  {shown(figure, totals[column][figure])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Legend />
      <div class="charts">
        {CHARTED.map((figure) => (
          <HourChart key={figure} figure={figure} hours={job.hours} />
        ))}
      </div>
    </div>
  );
}
