/** What one hour of the period came to (by the hour riders asked in). */
export interface HourFigures {
  hour: number;
  requests: number;
  matched: number;
  cancelled: number;
  pickupEtaMinutes: number[];
  fares: number[];
  surged: number;
  driverEarnings: number;
  onlineDriverMs: number;
}

/** A period's figures as an operator compares them (decisions.md "What-if replay"). */
export interface PeriodFigures {
  requests: number;
  matchedShare: number | null;
  pickupEtaMeanMinutes: number | null;
  pickupEtaP50Minutes: number | null;
  pickupEtaP90Minutes: number | null;
  meanFare: number | null;
  surgedShare: number | null;
  driverEarningsPerOnlineHour: number | null;
  cancellations: number;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
const rupees = (value: number) => Math.round(value * 100) / 100;

function percentile(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

/** The figures of some hours together (one hour, or the whole period). */
export function periodFigures(hours: readonly HourFigures[]): PeriodFigures {
  const sum = (pick: (hour: HourFigures) => number) => hours.reduce((total, hour) => total + pick(hour), 0);
  const requests = sum((hour) => hour.requests);
  const etas = hours.flatMap((hour) => hour.pickupEtaMinutes);
  const fares = hours.flatMap((hour) => hour.fares);
  const onlineHours = sum((hour) => hour.onlineDriverMs) / 3_600_000;
  return {
    requests,
    matchedShare: ratio(sum((hour) => hour.matched), requests),
    pickupEtaMeanMinutes: etas.length === 0 ? null : Math.round((etas.reduce((a, b) => a + b, 0) / etas.length) * 100) / 100,
    pickupEtaP50Minutes: percentile(etas, 0.5),
    pickupEtaP90Minutes: percentile(etas, 0.9),
    meanFare: fares.length === 0 ? null : rupees(fares.reduce((a, b) => a + b, 0) / fares.length),
    surgedShare: ratio(sum((hour) => hour.surged), requests),
    driverEarningsPerOnlineHour: onlineHours === 0 ? null : rupees(sum((hour) => hour.driverEarnings) / onlineHours),
    cancellations: sum((hour) => hour.cancelled),
  };
}

/** A request of the period as it went, for the "actual" column. */
export interface ActualRequest {
  at: number;
  matched: boolean;
  cancelledByRider: boolean;
  fare: number;
  surgeMultiplier: number;
  /** The accepted offer's pickup way, minutes (the replay's figure is the same one). */
  pickupEtaMinutes: number | null;
}

/** Empty hours from the one `from` falls in to the one `to` does. */
export function emptyHours(from: number, to: number): HourFigures[] {
  const hours: HourFigures[] = [];
  for (let hour = from - (from % 3_600_000); hour < to; hour += 3_600_000) {
    hours.push({ hour, requests: 0, matched: 0, cancelled: 0, pickupEtaMinutes: [], fares: [], surged: 0, driverEarnings: 0, onlineDriverMs: 0 });
  }
  return hours;
}

/** What happened, hour by hour, counted like a replay counts (drivers online from the same samples). */
export function actualHours(from: number, to: number, requests: readonly ActualRequest[], online: ReadonlyArray<{ at: number; drivers: number }>, driverShare: number, sampleMs: number): HourFigures[] {
  const hours = emptyHours(from, to);
  const hourOf = (at: number) => hours[Math.min(hours.length - 1, Math.max(0, Math.floor((at - hours[0].hour) / 3_600_000)))];
  for (const request of requests) {
    const figures = hourOf(request.at);
    figures.requests++;
    if (request.surgeMultiplier > 1) figures.surged++;
    if (request.cancelledByRider) figures.cancelled++;
    if (!request.matched) continue;
    figures.matched++;
    figures.fares.push(request.fare);
    figures.driverEarnings += request.fare * driverShare;
    if (request.pickupEtaMinutes !== null) figures.pickupEtaMinutes.push(request.pickupEtaMinutes);
  }
  online.forEach((sample, i) => {
    hourOf(sample.at).onlineDriverMs += sample.drivers * Math.max(0, (online[i + 1]?.at ?? Math.min(to, sample.at + sampleMs)) - sample.at);
  });
  return hours;
}
