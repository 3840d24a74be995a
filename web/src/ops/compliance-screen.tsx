import { useState } from 'preact/hooks';
import type { ComplianceBreach, ComplianceReport } from '../api/types.ts';
import type { VNode } from 'preact';
import { rich, t } from '../i18n/i18n.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

/** Days shown by default: the last week, today included. */
const DEFAULT_DAYS = 7;

const pad = (value: number) => String(value).padStart(2, '0');
/** A date field's value: the operator's local day `daysAgo` days before today. */
function localDay(daysAgo = 0): string {
  const day = new Date();
  day.setDate(day.getDate() - daysAgo);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
/** The start of a local day (plus `days`), as the API's date-time. */
function startOf(day: string, days = 0): string {
  const start = new Date(`${day}T00:00`);
  start.setDate(start.getDate() + days);
  return start.toISOString();
}

/** Each rule broken in the period: how many violations, on how many rides. */
function byRule(breaches: readonly ComplianceBreach[]): Array<{ rule: string; violations: number; rides: number }> {
  const rules = new Map<string, Set<number>>();
  for (const breach of breaches) rules.set(breach.rule, (rules.get(breach.rule) ?? new Set()).add(breach.rideId));
  return [...rules].map(([rule, rides]) => ({ rule, violations: breaches.filter((b) => b.rule === rule).length, rides: rides.size }));
}

/** The rides of a period checked against their pricing versions by a compliance profile (GET /admin/compliance): violations by rule, and each one. */
export function ComplianceScreen() {
  const api = useApi();
  const [from, setFrom] = useState(() => localDay(DEFAULT_DAYS - 1));
  const [to, setTo] = useState(() => localDay());
  const [report, setReport] = useState<ComplianceReport | null>(null);
  const check = useAction(async () => setReport(await api.admin.compliance({ from: startOf(from), to: startOf(to, 1) })));
  return (
    <section class="stack" aria-labelledby="compliance-title">
      <h2 id="compliance-title">{t('ops.compliance.title')}</h2>
      <p class="muted flush">{t('ops.compliance.note')}</p>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          void check.run();
        }}
      >
        <Field label={t('ops.compliance.from')}>
          <input type="date" name="from" value={from} required onInput={(event) => setFrom(event.currentTarget.value)} />
        </Field>
        <Field label={t('ops.compliance.to')}>
          <input type="date" name="to" value={to} required onInput={(event) => setTo(event.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={check.busy}>
          {t('ops.compliance.check')}
        </button>
      </form>
      <ErrorNotice message={check.error} />
      {report && <ComplianceResult report={report} />}
    </section>
  );
}

function ComplianceResult({ report }: { report: ComplianceReport }) {
  const rules = byRule(report.breaches);
  const rides = new Set(report.breaches.map((breach) => breach.rideId)).size;
  return (
    <div class="stack" aria-live="polite">
      <p class="flush">
        {t('ops.compliance.result', { checked: report.ridesChecked, profile: report.profile, violations: report.breaches.length, rides })}
      </p>
      {rules.length > 0 && (
        <div class="card">
          <table>
            <caption>{t('ops.compliance.byRule')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.compliance.rule')}</th>
                <th scope="col">{t('ops.compliance.violations')}</th>
                <th scope="col">{t('ops.compliance.rides')}</th>
              </tr>
            </thead>
            <tbody>
              {rules.map(({ rule, violations, rides: count }) => (
                <tr key={rule} data-rule={rule}>
                  <td>
                    <code>{rule}</code>
                  </td>
                  <td>{violations}</td>
                  <td>{count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.breaches.length > 0 && (
        <ul class="list" aria-label={t('ops.compliance.violations')}>
          {report.breaches.map((breach) => (
            <li key={`${breach.rideId}:${breach.rule}`} class="card">
              <a href={`#/rides/${breach.rideId}`}>{t('ops.rideLink', { id: breach.rideId })}</a>{' '}
              {rich<VNode>('ops.compliance.breach', {
                version: breach.pricingVersion,
                rule: breach.rule,
                problem: breach.problem,
                code: (chunks) => <code>{chunks}</code>,
                // The profile's finding, in the service's words (English).
                service: (chunks) => <span lang="en">{chunks}</span>,
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
