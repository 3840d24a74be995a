// How riders and drivers behaved in a period, fitted from what the service recorded, so a replay can
// ask "would this driver have taken this offer?" and "would this rider still be waiting?" of a candidate
// setting the period never saw (decisions.md "What-if replay"). Each fit reports its own figures, so an
// operator sees what the replay assumes and how much data it rests on.

/** An offer as dispatch recorded it: the driver's way to the pickup, the fare, the answer and how long it took. */
export interface AnsweredOffer {
  pickupKm: number;
  fare: number;
  accepted: boolean;
  answerMs: number;
}

/** P(accept) = σ(intercept + perKm × pickupKm + perHundredRupees × fare / 100). */
export interface AcceptanceModel {
  offers: number;
  acceptedShare: number;
  intercept: number;
  perKm: number;
  perHundredRupees: number;
}

/** A request's wait for a driver: until matched, cancelled by the rider, or given up by the service. */
export interface RequestWait {
  waitedMinutes: number;
  cancelled: boolean;
}

/**
 * The waits of requests whose wait for a driver has ended (RideStats.requestsBetween's shape). A wait
 * the service ended by finding no driver ends there, uncancelled: riders cancel once told nobody was
 * found, and counting those as impatience would have the replay's riders give up at dispatch's limit.
 */
export const waitsOf = (requests: ReadonlyArray<{ at: number; waitEnded: number | null; noDriverAt: number | null; cancelledByRider: boolean }>): RequestWait[] =>
  requests.flatMap((request) => {
    if (request.waitEnded === null) return [];
    const gaveUpFirst = request.noDriverAt !== null && request.noDriverAt <= request.waitEnded;
    const ended = gaveUpFirst ? request.noDriverAt! : request.waitEnded;
    return [{ waitedMinutes: Math.max(0, ended - request.at) / 60_000, cancelled: request.cancelledByRider && !gaveUpFirst }];
  });

/**
 * How long drivers took to answer offers: a replayed offer holds its ride and its driver this long,
 * as the period's did, before the ride is matched or offered to someone else. Refusals are declines
 * and offers left to expire together, as the acceptance fit counts them.
 */
export interface AnswerTimeModel {
  accepted: number;
  acceptMeanMs: number;
  refused: number;
  refuseMeanMs: number;
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

export function fitAnswerTimes(offers: readonly AnsweredOffer[]): AnswerTimeModel {
  const accepted = offers.filter((offer) => offer.accepted).map((offer) => offer.answerMs);
  const refused = offers.filter((offer) => !offer.accepted).map((offer) => offer.answerMs);
  return { accepted: accepted.length, acceptMeanMs: mean(accepted), refused: refused.length, refuseMeanMs: mean(refused) };
}

/** The pickup way, in minutes, of each ride's accepted offer. */
export const acceptedEtas = (offers: ReadonlyArray<{ rideId: number; pickupEtaMinutes: number; accepted: boolean }>): Map<number, number> =>
  new Map(offers.filter((offer) => offer.accepted).map((offer) => [offer.rideId, offer.pickupEtaMinutes]));

type PeriodOffer = AnsweredOffer & { rideId: number; pickupEtaMinutes: number };
type PeriodRequest = Parameters<typeof waitsOf>[0][number] & Parameters<typeof heldRidesOf>[0][number];

/** Everything a replay assumes of a period's people, fitted from its offers and requests (`speed`: SIMULATION_SPEED). */
export function fitBehaviour(offers: readonly PeriodOffer[], requests: readonly PeriodRequest[], speed = 1) {
  const waits = waitsOf(requests);
  return {
    waits,
    acceptance: fitAcceptance(offers),
    answers: fitAnswerTimes(offers),
    cancellation: fitCancellation(waits),
    tripTimes: fitTripTimes(heldRidesOf(requests, acceptedEtas(offers)), speed),
  };
}

/** A completed ride of the period: how long it held its driver, and the minutes the service reckoned it would. */
export interface HeldRide {
  acceptedAt: number;
  completedAt: number;
  /** The accepted offer's pickup way plus the trip's quoted driving minutes, of the city's time. */
  quotedMinutes: number;
}

/**
 * How long a ride holds its driver, over the minutes the service reckoned (the way to the pickup and
 * the trip as quoted): traffic, riders who are late, stops on the way. A replayed trip keeps its
 * driver its quoted minutes times this factor; 1 when the period completed no ride.
 */
export interface TripTimeModel {
  rides: number;
  quotedMinutes: number;
  heldMinutes: number;
  factor: number;
}

/** The ratio of the held minutes to the quoted ones over all completed rides (each weighs by its length). `speed`: SIMULATION_SPEED. */
export function fitTripTimes(rides: readonly HeldRide[], speed = 1): TripTimeModel {
  const quoted = rides.reduce((sum, ride) => sum + ride.quotedMinutes, 0);
  const held = rides.reduce((sum, ride) => sum + ((ride.completedAt - ride.acceptedAt) * speed) / 60_000, 0);
  return { rides: rides.length, quotedMinutes: quoted, heldMinutes: held, factor: quoted > 0 && held > 0 ? held / quoted : 1 };
}

/** The completed rides of a period's requests whose accepted offer is known (its pickup way is part of the quote). */
export function heldRidesOf(
  requests: ReadonlyArray<{ id: number; acceptedAt: number | null; completedAt: number | null; durationMinutes: number }>,
  acceptedEtas: ReadonlyMap<number, number>,
): HeldRide[] {
  return requests.flatMap((request) => {
    const eta = acceptedEtas.get(request.id);
    if (request.acceptedAt === null || request.completedAt === null || eta === undefined) return [];
    return [{ acceptedAt: request.acceptedAt, completedAt: request.completedAt, quotedMinutes: eta + request.durationMinutes }];
  });
}

/** Riders cancel at a constant rate while they wait: P(cancelled by t) = 1 − e^(−perMinute × t). */
export interface CancellationModel {
  requests: number;
  cancelled: number;
  perMinute: number;
  /** The minutes by which half of the riders still waiting would have cancelled (ln 2 / rate). */
  halfLifeMinutes: number | null;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) on three
 * coefficients, with a small ridge so a period where every offer was accepted (perfect separation)
 * still has finite coefficients. An empty period accepts every offer. The distance and the fare are
 * kept only when they explain the answers better than one share for all offers would by chance
 * (a likelihood-ratio test at 5 %): the slopes of a few dozen offers of drivers who took offers
 * whatever their distance are noise, and a replay asks of them pickups the period never offered.
 */
export function fitAcceptance(offers: readonly AnsweredOffer[]): AcceptanceModel {
  const accepted = offers.filter((offer) => offer.accepted).length;
  if (offers.length === 0) return { offers: 0, acceptedShare: 1, intercept: 10, perKm: 0, perHundredRupees: 0 };
  const rows = offers.map((offer) => [1, offer.pickupKm, offer.fare / 100]);
  const y = offers.map((offer) => (offer.accepted ? 1 : 0));
  const beta = newtonLogistic(rows, y);
  const [shareOnly] = newtonLogistic(rows.map(() => [1]), y);
  const explains = 2 * (logLikelihood(rows, y, beta) - logLikelihood(rows, y, [shareOnly, 0, 0])) > CHI_SQUARED_2_DF_5_PERCENT;
  const [intercept, perKm, perHundredRupees] = explains ? beta : [shareOnly, 0, 0];
  return { offers: offers.length, acceptedShare: accepted / offers.length, intercept, perKm, perHundredRupees };
}

/** The 95th percentile of χ² with two degrees of freedom (the two slopes the test drops). */
const CHI_SQUARED_2_DF_5_PERCENT = 5.991;

function logLikelihood(rows: readonly number[][], y: readonly number[], beta: readonly number[]): number {
  return rows.reduce((sum, x, n) => {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(x.reduce((z, xi, i) => z + xi * beta[i], 0))));
    return sum + (y[n] === 1 ? Math.log(p) : Math.log(1 - p));
  }, 0);
}

export const acceptProbability = (model: AcceptanceModel, pickupKm: number, fare: number): number =>
  sigmoid(model.intercept + model.perKm * pickupKm + model.perHundredRupees * (fare / 100));

/** The exponential rate's maximum-likelihood estimate: cancellations over the minutes waited in all. */
export function fitCancellation(waits: readonly RequestWait[]): CancellationModel {
  const cancelled = waits.filter((wait) => wait.cancelled).length;
  const minutes = waits.reduce((sum, wait) => sum + Math.max(0, wait.waitedMinutes), 0);
  const perMinute = minutes > 0 ? cancelled / minutes : 0;
  return { requests: waits.length, cancelled, perMinute, halfLifeMinutes: perMinute > 0 ? Math.LN2 / perMinute : null };
}

const RIDGE = 1e-3;
const ITERATIONS = 50;

function newtonLogistic(rows: readonly number[][], y: readonly number[]): number[] {
  const k = rows[0].length;
  let beta = new Array<number>(k).fill(0);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const gradient = beta.map((b) => -RIDGE * b);
    const hessian = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? RIDGE : 0)));
    rows.forEach((x, n) => {
      const p = sigmoid(x.reduce((sum, xi, i) => sum + xi * beta[i], 0));
      const w = p * (1 - p);
      for (let i = 0; i < k; i++) {
        gradient[i] += (y[n] - p) * x[i];
        for (let j = 0; j < k; j++) hessian[i][j] += w * x[i] * x[j];
      }
    });
    const step = solve(hessian, gradient);
    beta = beta.map((b, i) => b + step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return beta;
}

/** Gaussian elimination with partial pivoting (the system is at most 3 × 3 and positive definite). */
function solve(matrix: readonly number[][], vector: readonly number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]]);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(a[row][column]) > Math.abs(a[pivot][column])) pivot = row;
    [a[column], a[pivot]] = [a[pivot], a[column]];
    for (let row = column + 1; row < n; row++) {
      const factor = a[row][column] / a[column][column];
      for (let j = column; j <= n; j++) a[row][j] -= factor * a[column][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = a[row][n];
    for (let j = row + 1; j < n; j++) sum -= a[row][j] * x[j];
    x[row] = sum / a[row][row];
  }
  return x;
}

/** A band of a fit's check: its cases, the share observed and the share the model gives them. */
export interface FitBand {
  from: number;
  to: number | null;
  count: number;
  observed: number | null;
  fitted: number | null;
}

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const inBand = (value: number, from: number, to: number | null) => value >= from && (to === null || value < to);

/** Accepted share by distance to the pickup, observed and as the model has it for the same offers. */
export function acceptanceBands(model: AcceptanceModel, offers: readonly AnsweredOffer[], edgesKm: readonly number[]): FitBand[] {
  return edgesKm.map((from, i) => {
    const to = edgesKm[i + 1] ?? null;
    const band = offers.filter((offer) => inBand(offer.pickupKm, from, to));
    const fitted = band.reduce((sum, offer) => sum + acceptProbability(model, offer.pickupKm, offer.fare), 0);
    return { from, to, count: band.length, observed: share(band.filter((offer) => offer.accepted).length, band.length), fitted: share(fitted, band.length) };
  });
}

/**
 * Of the riders still waiting when a band of minutes began, the share who cancelled within it:
 * observed, and as the model expects it (its rate times the minutes they waited within the band,
 * each until their wait ended or the band did).
 */
export function cancellationBands(model: CancellationModel, waits: readonly RequestWait[], edgesMinutes: readonly number[]): FitBand[] {
  return edgesMinutes.map((from, i) => {
    const to = edgesMinutes[i + 1] ?? null;
    const atRisk = waits.filter((wait) => wait.waitedMinutes >= from);
    const cancelled = atRisk.filter((wait) => wait.cancelled && inBand(wait.waitedMinutes, from, to)).length;
    const exposure = atRisk.reduce((sum, wait) => sum + Math.min(to ?? Infinity, wait.waitedMinutes) - from, 0);
    const fitted = model.perMinute * exposure;
    return { from, to, count: atRisk.length, observed: share(cancelled, atRisk.length), fitted: share(fitted, atRisk.length) };
  });
}
