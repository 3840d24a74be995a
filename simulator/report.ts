import type { Figures, SeriesPoint, Summary } from './figures.ts';
import type { RunSettings } from './simulation.ts';

/** One column of the output: a run, named by its dispatch mode when runs are compared. */
export interface NamedRun {
  name: string;
  settings: RunSettings;
  figures: Figures;
}

const pct = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);
const three = (s: Summary | null) => (s === null ? '–' : `${s.mean} / ${s.p50} / ${s.p90}`);

/** Every figure, in the order the table, the page and docs/simulator.md give them. */
export const FIGURE_ROWS: ReadonlyArray<{ label: string; value(f: Figures): string }> = [
  { label: 'Requests', value: (f) => `${f.requests}` },
  { label: 'Matched (share of requests)', value: (f) => `${f.matched} (${pct(f.matchedShare)})` },
  { label: 'Cancelled before a match', value: (f) => `${f.cancelledBeforeMatch}` },
  { label: 'Unmatched: no driver found / rider gave up', value: (f) => `${f.unmatched.total}: ${f.unmatched.noDriverFound} / ${f.unmatched.gaveUp}` },
  { label: 'Still waiting when the run ended', value: (f) => `${f.waitingAtEnd}` },
  { label: 'Time to accept, s (mean / p50 / p90)', value: (f) => three(f.timeToAcceptSeconds) },
  { label: 'Pickup distance, km (mean / p50 / p90)', value: (f) => three(f.pickupDistanceKm) },
  { label: 'Pickup time, min (mean / p50 / p90)', value: (f) => three(f.pickupMinutes) },
  { label: 'Completed', value: (f) => `${f.completed}` },
  { label: 'Cancelled after a match: rider / driver / operator', value: (f) => `${f.cancelledAfterMatch.byRider} / ${f.cancelledAfterMatch.byDriver} / ${f.cancelledAfterMatch.byAdmin}` },
  { label: 'Booked ahead: booked / completed', value: (f) => `${f.bookedAhead.booked} / ${f.bookedAhead.completed}` },
  { label: 'Under way when the run ended', value: (f) => `${f.inProgressAtEnd}` },
  { label: 'Driver utilisation', value: (f) => pct(f.driverUtilisation) },
  { label: 'Surge charged at booking (mean / max)', value: (f) => (f.surge === null ? '–' : `${f.surge.mean} / ${f.surge.max}`) },
  {
    label: 'Offers: received / accepted / declined / let expire / missed',
    value: (f) => `${f.offers.received} / ${f.offers.accepted} / ${f.offers.declined} / ${f.offers.ignored} / ${f.offers.missed}`,
  },
  { label: 'Waiting charged at the pickup: rides / ₹', value: (f) => `${f.tripCharges.waiting.rides} / ${f.tripCharges.waiting.inr}` },
  {
    label: 'Tolls and parking: rides / ₹ (refused by the cap)',
    value: (f) => `${f.tripCharges.tollsAndParking.rides} / ${f.tripCharges.tollsAndParking.inr} (${f.tripCharges.refusedByCap})`,
  },
  { label: 'Night rides (dropped in the night window)', value: (f) => `${f.tripCharges.nightRides}` },
  { label: 'Payments: cash / online / failed', value: (f) => `${f.payments.cash} / ${f.payments.online} / ${f.payments.failed}` },
  { label: 'Ratings by riders (count / mean)', value: (f) => `${f.ratings.count} / ${f.ratings.mean ?? '–'}` },
  {
    label: 'Bookings refused',
    value: (f) => Object.entries(f.bookingFailures).map(([code, n]) => `${code} ${n}`).join(', ') || '0',
  },
];

/** The charts of the page: what each shows over the run's intervals. */
export const CHARTS: ReadonlyArray<{ title: string; values: (p: SeriesPoint) => number | null; range?: 'share' | 'surge' }> = [
  { title: 'Requests', values: (p) => p.requests },
  { title: 'Matched share of requests', values: (p) => p.matchedShare, range: 'share' },
  { title: 'Pickup time, min', values: (p) => p.pickupMinutes },
  { title: 'Surge multiplier', values: (p) => p.surge, range: 'surge' },
  { title: 'Online drivers', values: (p) => p.onlineDrivers },
  { title: 'Busy drivers', values: (p) => p.busyDrivers },
];

/** The figures as a plain-text table, one column per run. */
export function figuresTable(runs: readonly NamedRun[]): string {
  const rows = [['figure', ...runs.map((run) => run.name)], ...FIGURE_ROWS.map((row) => [row.label, ...runs.map((run) => row.value(run.figures))])];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** The figures as JSON, over time included: one run's, or every compared run's by name. */
export function figuresJson(runs: readonly NamedRun[]): string {
  const value = runs.length === 1 ? { settings: runs[0].settings, figures: runs[0].figures } : { runs };
  return JSON.stringify(value, null, 2);
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A page with the figures and their charts over time: inline SVG, so it opens from the disk with no server and no network. */
export function htmlReport(runs: readonly NamedRun[]): string {
  const first = runs[0].settings;
  const title = `${first.city} simulation, seed ${first.seed}`;
  const table = [
    `<tr><th>figure</th>${runs.map((run) => `<th>${escape(run.name)}</th>`).join('')}</tr>`,
    ...FIGURE_ROWS.map((row) => `<tr><td>${escape(row.label)}</td>${runs.map((run) => `<td>${escape(row.value(run.figures))}</td>`).join('')}</tr>`),
  ].join('\n');
  const settings = runs
    .map((run) => {
      const s = run.settings;
      return `<li><b>${escape(run.name)}</b>: ${s.drivers} drivers, ${s.riders} riders, ${s.minutes} simulated minutes from ${s.start} at ${s.speed}× speed, load ${s.load}; ${escape(s.routing)}; payments: ${escape(s.payments)}${s.stoppedEarly ? '; <b>stopped early</b>' : ''}</li>`;
    })
    .join('\n');
  const labels = runs.reduce<SeriesPoint[]>((longest, run) => (run.figures.series.length > longest.length ? run.figures.series : longest), []).map((p) => p.from);
  const charts = CHARTS.map((c) => chart(c.title, labels, runs.map((run, i) => ({ name: run.name, colour: COLOURS[i % COLOURS.length], values: run.figures.series.map(c.values) })), c.range)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 12px 0 24px; }
td, th { border: 1px solid #ccc; padding: 4px 10px; text-align: left; }
th { background: #f3f3f3; }
figure { margin: 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr)); gap: 16px; }
/* A phone: the page fits its width; the figures table scrolls sideways inside itself when it must. */
@media (max-width: 600px) { body { margin: 12px; } td, th { padding: 4px 6px; } }
.table { overflow-x: auto; }
svg { width: 100%; height: auto; border: 1px solid #e4e4e4; background: #fff; }
svg text { font: 11px system-ui, sans-serif; fill: #555; }
</style>
</head>
<body>
<h1>${escape(title)}</h1>
<ul>${settings}</ul>
<h2>Figures</h2>
<div class="table">
<table>
${table}
</table>
</div>
<h2>Over time</h2>
<p>Per ${runs[0].figures.intervalMinutes} simulated minutes.</p>
<div class="charts">
${charts}
</div>
<p>Times are simulated. Figures are defined in docs/simulator.md.</p>
</body>
</html>
`;
}

interface Line {
  name: string;
  colour: string;
  values: Array<number | null>;
}

/** A line chart; shares run from 0 to 100 %, surge from 1 to its cap of 2, anything else from 0 to a round maximum. */
function chart(title: string, labels: string[], lines: Line[], range?: 'share' | 'surge'): string {
  const [width, height, left, right, top, bottom] = [480, 220, 44, 12, 26, 30];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const all = lines.flatMap((line) => line.values.filter((v): v is number => v !== null));
  const [min, max] = range === 'share' ? [0, 1] : range === 'surge' ? [1, 2] : [0, niceCeiling(Math.max(0, ...all))];
  const x = (i: number) => left + (labels.length <= 1 ? plotW / 2 : (i / (labels.length - 1)) * plotW);
  const y = (v: number) => top + plotH - ((v - min) / (max - min)) * plotH;
  const format = (v: number) => (range === 'share' ? `${Math.round(v * 100)} %` : `${Math.round(v * 100) / 100}`);
  const grid = [0, 0.5, 1]
    .map((f) => min + (max - min) * f)
    .map((v) => `<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${left - 4}" y="${y(v) + 4}" text-anchor="end">${format(v)}</text>`)
    .join('');
  const step = Math.max(1, Math.ceil(labels.length / 8));
  const ticks = labels.map((label, i) => (i % step === 0 ? `<text x="${x(i)}" y="${height - 10}" text-anchor="middle">${escape(label)}</text>` : '')).join('');
  const paths = lines
    .map((line, n) => {
      // Later lines are dashed, so equal runs show as one line of two colours rather than one hiding the other.
      const dash = n === 0 ? '' : ` stroke-dasharray="6 4"`;
      const segments: string[][] = [[]];
      line.values.forEach((v, i) => (v === null ? segments.push([]) : segments.at(-1)!.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`)));
      return segments
        .filter((points) => points.length > 0)
        .map((points) =>
          points.length === 1
            ? `<circle cx="${points[0].split(',')[0]}" cy="${points[0].split(',')[1]}" r="2.5" fill="${line.colour}"/>`
            : `<polyline fill="none" stroke="${line.colour}" stroke-width="2"${dash} points="${points.join(' ')}"/>`,
        )
        .join('');
    })
    .join('');
  const legend = lines.map((line, i) => `<text x="${width - right - (lines.length - 1 - i) * 90}" y="16" text-anchor="end" style="fill:${line.colour}">■ ${escape(line.name)}</text>`).join('');
  return `<figure><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(title)}"><text x="${left}" y="16" style="font-weight:600;fill:#222">${escape(title)}</text>${legend}${grid}${ticks}${paths}</svg></figure>`;
}

/** 1, 2 or 5 times a power of ten, at least `value`. */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}
