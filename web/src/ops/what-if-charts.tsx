import type { WhatIfJob } from '../api/types.ts';
import { timeOf, dateTimeOf } from '../ui/format.ts';

// Hour-by-hour charts of a what-if replay: small inline SVG, one line per column (actual, replayed as
// was, candidate) told apart by dash as well as colour, each chart with its table for screen readers
// and anyone who wants the numbers.

export type Figures = NonNullable<WhatIfJob['totals']>['actual'];
export type Column = 'actual' | 'asWas' | 'candidate';
export const COLUMNS: Record<Column, string> = { actual: 'Actual', asWas: 'Replayed as was', candidate: 'Candidate' };

/** Each figure once: its label and how its value reads. */
export const FIGURES: Record<keyof Figures, { label: string; show: (value: number) => string }> = {
  requests: { label: 'Requests', show: String },
  matchedShare: { label: 'Share matched', show: (value) => `${Math.round(value * 1000) / 10} %` },
  pickupEtaMeanMinutes: { label: 'Pickup ETA, mean', show: (value) => `${Math.round(value * 10) / 10} min` },
  pickupEtaP50Minutes: { label: 'Pickup ETA, median', show: (value) => `${Math.round(value * 10) / 10} min` },
  pickupEtaP90Minutes: { label: 'Pickup ETA, 90th percentile', show: (value) => `${Math.round(value * 10) / 10} min` },
  meanFare: { label: 'Mean fare', show: (value) => `₹${Math.round(value)}` },
  surgedShare: { label: 'Share surged', show: (value) => `${Math.round(value * 1000) / 10} %` },
  driverEarningsPerOnlineHour: { label: 'Driver earnings per online hour', show: (value) => `₹${Math.round(value)}` },
  cancellations: { label: 'Cancellations', show: String },
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
  const { label } = FIGURES[figure];
  const series = (Object.keys(COLUMNS) as Column[]).map((column) => ({ column, values: hours.map((hour) => hour[column][figure]) }));
  const top = Math.max(0, ...series.flatMap(({ values }) => values.filter((value): value is number => value !== null)));
  const id = `what-if-chart-${figure}`;
  return (
    <figure class="chart stack" aria-labelledby={id}>
      <figcaption id={id}>
        <strong>{label}</strong> <span class="muted">hour by hour, up to {shown(figure, top)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${label} hour by hour, one line each for actual, replayed as was and candidate (the table below gives the numbers)`}>
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
        <summary>{label}: the table</summary>
        <table class="figures">
          <caption class="visually-hidden">{label} hour by hour</caption>
          <ColumnHeads first="Hour" />
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
    <ul class="legend row" aria-label="Lines of the charts">
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
