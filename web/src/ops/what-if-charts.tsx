import type { WhatIfJob } from '../api/types.ts';
import { labelsOf, t, type MessageKey } from '../i18n/i18n.ts';
import { count, dateTimeOf, minutes, money, percent, timeOf } from '../ui/format.ts';

// Hour-by-hour charts of a what-if replay: small inline SVG, one line per column (actual, replayed as
// was, candidate) told apart by dash as well as colour, each chart with its table for screen readers
// and anyone who wants the numbers.

export type Figures = NonNullable<WhatIfJob['totals']>['actual'];
export type Column = 'actual' | 'asWas' | 'candidate';
export const COLUMNS = labelsOf('ops.whatIf.column.', ['actual', 'asWas', 'candidate'] as const satisfies readonly Column[]);

const tenths = (value: number) => Math.round(value * 10) / 10;

/** Each figure once: its label and how its value reads. */
export const FIGURES: Record<keyof Figures, { label: MessageKey; show: (value: number) => string }> = {
  requests: { label: 'ops.whatIf.figure.requests', show: count },
  matchedShare: { label: 'ops.whatIf.figure.matchedShare', show: percent },
  pickupEtaMeanMinutes: { label: 'ops.whatIf.figure.pickupEtaMeanMinutes', show: (value) => minutes(tenths(value)) },
  pickupEtaP50Minutes: { label: 'ops.whatIf.figure.pickupEtaP50Minutes', show: (value) => minutes(tenths(value)) },
  pickupEtaP90Minutes: { label: 'ops.whatIf.figure.pickupEtaP90Minutes', show: (value) => minutes(tenths(value)) },
  meanFare: { label: 'ops.whatIf.figure.meanFare', show: (value) => money(Math.round(value)) },
  surgedShare: { label: 'ops.whatIf.figure.surgedShare', show: percent },
  driverEarningsPerOnlineHour: { label: 'ops.whatIf.figure.driverEarningsPerOnlineHour', show: (value) => money(Math.round(value)) },
  cancellations: { label: 'ops.whatIf.figure.cancellations', show: count },
};

/** The figures charted hour by hour (decisions.md "What-if replay"). */
export const CHARTED: Array<keyof Figures> = ['matchedShare', 'pickupEtaP50Minutes', 'meanFare', 'surgedShare', 'driverEarningsPerOnlineHour', 'cancellations'];

export const shown = (figure: keyof Figures, value: number | null) => (value === null ? '—' : FIGURES[figure].show(value));

const WIDTH = 320;
const HEIGHT = 120;
const PAD = { left: 4, right: 4, top: 8, bottom: 8 };

/** An SVG path through the hours with a value; an hour without one breaks the line. */
function pathOf(values: ReadonlyArray<number | null>, top: number): string {
  const x = (i: number) => PAD.left + (values.length < 2 ? 0 : (i * (WIDTH - PAD.left - PAD.right)) / (values.length - 1));
  const y = (value: number) => HEIGHT - PAD.bottom - (top === 0 ? 0 : (value / top) * (HEIGHT - PAD.top - PAD.bottom));
  let path = '';
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null) return void (drawing = false);
    path += `${drawing ? 'L' : 'M'}${x(i).toFixed(1)} ${y(value).toFixed(1)} `;
    drawing = true;
  });
  return path.trim();
}

export function HourChart({ figure, hours }: { figure: keyof Figures; hours: WhatIfJob['hours'] }) {
  const label = t(FIGURES[figure].label);
  const series = (Object.keys(COLUMNS) as Column[]).map((column) => ({ column, values: hours.map((hour) => hour[column][figure]) }));
  const top = Math.max(0, ...series.flatMap(({ values }) => values.filter((value): value is number => value !== null)));
  const id = `what-if-chart-${figure}`;
  return (
    <figure class="chart stack" aria-labelledby={id}>
      <figcaption id={id}>
        <strong>{label}</strong> <span class="muted">{t('ops.chart.upTo', { top: shown(figure, top) })}</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('ops.chart.aria', { figure: label })}>
        <line class="axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
        {series.map(({ column, values }) => (
          <path key={column} class={`series ${column}`} d={pathOf(values, top)} data-series={column} />
        ))}
      </svg>
      <div class="row spread muted">
        <span>{hours[0] && dateTimeOf(hours[0].hour)}</span>
        <span>{hours.length > 1 && timeOf(hours[hours.length - 1].hour)}</span>
      </div>
      <details>
        <summary>{t('ops.chart.table', { figure: label })}</summary>
        <table class="figures">
          <caption class="visually-hidden">{t('ops.chart.caption', { figure: label })}</caption>
          <ColumnHeads first={t('ops.whatIf.hour')} />
          <tbody>
            {hours.map((hour) => (
              <tr key={hour.hour}>
                <th scope="row">{dateTimeOf(hour.hour)}</th>
                {(Object.keys(COLUMNS) as Column[]).map((column) => (
                  <td key={column}>{shown(figure, hour[column][figure])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** A figures table's header: its first column's name, then the three columns. */
export function ColumnHeads({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        {Object.values(COLUMNS).map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Which line is which: the same stroke as the charts draw. */
export function Legend() {
  return (
    <ul class="legend row" aria-label={t('ops.chart.legend')}>
      {(Object.keys(COLUMNS) as Column[]).map((column) => (
        <li key={column}>
          <svg viewBox="0 0 24 8" width="24" height="8" aria-hidden="true">
            <path class={`series ${column}`} d="M0 4 L24 4" />
          </svg>{' '}
          {COLUMNS[column]}
        </li>
      ))}
    </ul>
  );
}
