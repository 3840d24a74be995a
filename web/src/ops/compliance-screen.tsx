import { useState } from 'preact/hooks';
import type { ComplianceBreach, ComplianceReport } from '../api/types.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

/** Days shown by default: the last week, today included. */
const DEFAULT_DAYS = 7;

const counted = (count: number, thing: string) => `${count} ${thing}${count === 1 ? '' : 's'}`;
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
      <h2 id="compliance-title">Compliance</h2>
      <p class="muted flush">Every ride booked in the period, checked against the pricing version it was priced with by India's Motor Vehicle Aggregator Guidelines 2025 (IN-MVAG-2025).</p>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          void check.run();
        }}
      >
        <Field label="From (booked on or after)">
          <input type="date" name="from" value={from} required onInput={(event) => setFrom(event.currentTarget.value)} />
        </Field>
        <Field label="To (booked on or before)">
          <input type="date" name="to" value={to} required onInput={(event) => setTo(event.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={check.busy}>
          Check
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
        {counted(report.ridesChecked, 'ride')} checked against {report.profile}: {report.breaches.length === 0 ? 'no violation.' : `${counted(report.breaches.length, 'violation')} on ${counted(rides, 'ride')}.`}
      </p>
      {rules.length > 0 && (
        <div class="card">
          <table>
            <caption>Violations by rule</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Violations</th>
                <th scope="col">Rides</th>
              </tr>
            </thead>
            <tbody>
              {rules.map(({ rule, violations, rides: count }) => (
                <tr key={rule} data-rule={rule}>
                  <td>{rule}</td>
                  <td>{violations}</td>
                  <td>{count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.breaches.length > 0 && (
        <ul class="list" aria-label="Violations">
          {report.breaches.map((breach) => (
            <li key={`${breach.rideId}:${breach.rule}`} class="card">
              <a href={`#/rides/${breach.rideId}`}>Ride {breach.rideId}</a> (pricing version {breach.pricingVersion}), {breach.rule}: {breach.problem}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
