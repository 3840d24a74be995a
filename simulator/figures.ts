import type { PlannedBooking } from './demand.ts';
import type { PaymentOutcome } from './payments.ts';

// What the run measured, in simulated time: each ride's facts as the simulated apps saw them,
// and how busy the drivers were. The marketplace figures of decisions.md are computed from these.

export type CancelledBy = 'rider' | 'driver' | 'admin';

export interface RideFacts {
  booking: PlannedBooking;
  rideId: number;
  bookedAt: number;
  /** Booked for this long after `bookedAt` (simulated ms); absent for a ride booked for now. */
  aheadMs?: number;
  fare: number;
  /** As the service took it (CASH, UPI, …). */
  paymentMode: string;
  surge: number;
  acceptedAt?: number;
  /** Straight-line km from the driver to the pickup point when they accepted. */
  pickupKm?: number;
  pickedAt?: number;
  completedAt?: number;
  cancelledAt?: number;
  cancelledBy?: CancelledBy;
  /** Why the rider cancelled an unmatched ride: the service found no driver, or they gave up waiting. */
  unmatched?: 'no-driver' | 'gave-up';
  /** The run ended (or was stopped) while the ride was open, and the rider cancelled it. */
  endedByRun?: boolean;
  /** What the completed ride was charged, from its fareBreakdown: the fare and the parts the trip that happened adds. */
  charged?: { fare: number; waitingFare: number; tollsAndParking: number; night: boolean };
}

export interface Summary {
  mean: number;
  p50: number;
  p90: number;
}

export interface SeriesPoint {
  /** Start of the interval, as a time of day (HH:MM). */
  from: string;
  requests: number;
  /** Share of the interval's requests a driver accepted (null: no requests). */
  matchedShare: number | null;
  /** Mean minutes from acceptance to pickup of the rides accepted in the interval. */
  pickupMinutes: number | null;
  /** Mean surge multiplier of the interval's bookings. */
  surge: number | null;
  onlineDrivers: number;
  busyDrivers: number;
}

export interface Figures {
  requests: number;
  matched: number;
  matchedShare: number;
  /** Requests the rider cancelled before a match, having changed their mind. */
  cancelledBeforeMatch: number;
  /** Requests nobody took: the service found no driver, or the rider gave up waiting. */
  unmatched: { total: number; noDriverFound: number; gaveUp: number };
  /** Requests still waiting when the run ended (cancelled by the simulator then). */
  waitingAtEnd: number;
  /** From booking to a driver's accept, for rides booked for now. */
  timeToAcceptSeconds: Summary | null;
  pickupDistanceKm: Summary | null;
  pickupMinutes: Summary | null;
  completed: number;
  cancelledAfterMatch: { byRider: number; byDriver: number; byAdmin: number };
  /** Matched rides still under way when the run ended (cancelled by the simulator then). */
  inProgressAtEnd: number;
  /** Share of the drivers' online time spent with a ride (from acceptance to its end). */
  driverUtilisation: number;
  surge: { mean: number; max: number } | null;
  offers: { received: number; accepted: number; declined: number; ignored: number; missed: number };
  payments: Record<PaymentOutcome, number>;
  ratings: { count: number; mean: number | null };
  /** Bookings the service refused, by error code, and ones no free rider was left for. */
  bookingFailures: Record<string, number>;
  /**
   * What completed rides were charged for the trip that happened: waiting at the pickup and tolls and
   * parking (rides, rupees), rides dropped in the night window, and tolls and parking the service's cap refused.
   */
  /** Requests booked ahead (for later; included in `requests`), and how many of them were driven to the end. */
  bookedAhead: { booked: number; completed: number };
  tripCharges: { waiting: { rides: number; inr: number }; tollsAndParking: { rides: number; inr: number }; nightRides: number; refusedByCap: number };
  /** The length of each interval of the series. */
  intervalMinutes: number;
  series: SeriesPoint[];
}

interface Sample {
  at: number;
  online: number;
  busy: number;
}

/** Everything a run records; one per run. */
export class Ledger {
  readonly rides = new Map<number, RideFacts>();
  readonly offers = { received: 0, accepted: 0, declined: 0, ignored: 0, missed: 0 };
  readonly payments: Record<PaymentOutcome, number> = { cash: 0, online: 0, failed: 0 };
  readonly ratings: number[] = [];
  readonly bookingFailures: Record<string, number> = {};
  /** Tolls and parking a driver added that the service refused (its pricing version's cap per ride). */
  chargesRefused = 0;
  readonly #online = new Map<number, number>();
  readonly #busy = new Map<number, number>();
  #onlineMs = 0;
  #busyMs = 0;
  readonly #samples: Sample[] = [];

  bookingFailed(code: string): void {
    this.bookingFailures[code] = (this.bookingFailures[code] ?? 0) + 1;
  }

  driverOnline(driver: number, at: number): void {
    this.#online.set(driver, at);
  }

  driverOffline(driver: number, at: number): void {
    const since = this.#online.get(driver);
    if (since === undefined) return;
    this.#onlineMs += at - since;
    this.#online.delete(driver);
    this.driverFree(driver, at);
  }

  driverBusy(driver: number, at: number): void {
    if (!this.#busy.has(driver)) this.#busy.set(driver, at);
  }

  driverFree(driver: number, at: number): void {
    const since = this.#busy.get(driver);
    if (since === undefined) return;
    this.#busyMs += at - since;
    this.#busy.delete(driver);
  }

  sample(at: number): void {
    this.#samples.push({ at, online: this.#online.size, busy: this.#busy.size });
  }

  get onlineDrivers(): number {
    return this.#online.size;
  }

  get busyDrivers(): number {
    return this.#busy.size;
  }

  /** The figures, once every driver went offline. `label` names an interval by its start (simulated ms). */
  figures(bucketMs: number, label: (at: number) => string): Figures {
    const rides = [...this.rides.values()];
    const accepted = rides.filter((r) => r.acceptedAt !== undefined);
    const unaccepted = rides.filter((r) => r.acceptedAt === undefined);
    const picked = accepted.filter((r) => r.pickedAt !== undefined);
    const surges = rides.map((r) => r.surge);
    const ahead = rides.filter((r) => r.aheadMs !== undefined);
    const cancelledBy = (who: CancelledBy) => accepted.filter((r) => r.cancelledBy === who && !r.endedByRun).length;
    return {
      requests: rides.length,
      matched: accepted.length,
      matchedShare: share(accepted.length, rides.length) ?? 0,
      cancelledBeforeMatch: unaccepted.filter((r) => r.cancelledAt !== undefined && !r.unmatched && !r.endedByRun).length,
      unmatched: {
        total: unaccepted.filter((r) => r.unmatched).length,
        noDriverFound: unaccepted.filter((r) => r.unmatched === 'no-driver').length,
        gaveUp: unaccepted.filter((r) => r.unmatched === 'gave-up').length,
      },
      waitingAtEnd: unaccepted.filter((r) => r.endedByRun).length,
      // A ride booked ahead is accepted near its time, by design: its wait is not a wait for a driver.
      timeToAcceptSeconds: summary(accepted.filter((r) => r.aheadMs === undefined).map((r) => (r.acceptedAt! - r.bookedAt) / 1000)),
      pickupDistanceKm: summary(accepted.flatMap((r) => (r.pickupKm === undefined ? [] : [r.pickupKm]))),
      pickupMinutes: summary(picked.map((r) => (r.pickedAt! - r.acceptedAt!) / 60_000)),
      completed: accepted.filter((r) => r.completedAt !== undefined).length,
      cancelledAfterMatch: { byRider: cancelledBy('rider'), byDriver: cancelledBy('driver'), byAdmin: cancelledBy('admin') },
      inProgressAtEnd: accepted.filter((r) => r.endedByRun && r.completedAt === undefined).length,
      driverUtilisation: share(this.#busyMs, this.#onlineMs) ?? 0,
      surge: surges.length === 0 ? null : { mean: round(mean(surges), 3), max: Math.max(...surges) },
      offers: { ...this.offers },
      payments: { ...this.payments },
      ratings: { count: this.ratings.length, mean: this.ratings.length === 0 ? null : round(mean(this.ratings), 2) },
      bookingFailures: { ...this.bookingFailures },
      bookedAhead: { booked: ahead.length, completed: ahead.filter((r) => r.completedAt !== undefined).length },
      tripCharges: tripCharges(rides.flatMap((r) => (r.charged ? [r.charged] : [])), this.chargesRefused),
      intervalMinutes: bucketMs / 60_000,
      series: this.#series(rides, bucketMs, label),
    };
  }

  #series(rides: RideFacts[], bucketMs: number, label: (at: number) => string): SeriesPoint[] {
    const end = Math.max(0, ...rides.map((r) => r.bookedAt), ...this.#samples.map((s) => s.at));
    const count = Math.floor(end / bucketMs) + 1;
    return Array.from({ length: count }, (_, i) => {
      const inBucket = (at: number | undefined) => at !== undefined && Math.floor(at / bucketMs) === i;
      const booked = rides.filter((r) => inBucket(r.bookedAt));
      const picked = rides.filter((r) => inBucket(r.acceptedAt) && r.pickedAt !== undefined);
      const samples = this.#samples.filter((s) => inBucket(s.at));
      return {
        from: label(i * bucketMs),
        requests: booked.length,
        matchedShare: share(booked.filter((r) => r.acceptedAt !== undefined).length, booked.length),
        pickupMinutes: picked.length === 0 ? null : round(mean(picked.map((r) => (r.pickedAt! - r.acceptedAt!) / 60_000)), 2),
        surge: booked.length === 0 ? null : round(mean(booked.map((r) => r.surge)), 3),
        onlineDrivers: samples.length === 0 ? 0 : Math.round(mean(samples.map((s) => s.online))),
        busyDrivers: samples.length === 0 ? 0 : Math.round(mean(samples.map((s) => s.busy))),
      };
    });
  }
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const share = (part: number, whole: number) => (whole === 0 ? null : round(part / whole, 4));

/** Mean and percentiles (nearest rank), or null without values. */
export function summary(values: number[]): Summary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  return { mean: round(mean(sorted), 2), p50: round(rank(0.5), 2), p90: round(rank(0.9), 2) };
}

/** The trip-that-happened parts of the completed rides' fares. */
function tripCharges(charged: ReadonlyArray<NonNullable<RideFacts['charged']>>, refusedByCap: number): Figures['tripCharges'] {
  const part = (amount: (c: (typeof charged)[number]) => number) => {
    const amounts = charged.map(amount).filter((inr) => inr > 0);
    return { rides: amounts.length, inr: Math.round(amounts.reduce((sum, inr) => sum + inr, 0)) };
  };
  return { waiting: part((c) => c.waitingFare), tollsAndParking: part((c) => c.tollsAndParking), nightRides: charged.filter((c) => c.night).length, refusedByCap };
}
