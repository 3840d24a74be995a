import { localDate, startOfLocalDate, toIso } from '../../platform/clock.ts';
import { badRequest } from '../../platform/errors.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { driverShareOf, splitFare } from '../pricing/driver-share.ts';
import type { PricingRules } from '../pricing/pricing.schemas.ts';
import type { EarningDay, EarningPenalty, EarningRide, Earnings, EarningsQuery } from './earnings.schemas.ts';
import { passedThroughOf, type ReceiptRow } from './ride-receipt.ts';

// A driver's earnings as pure functions: the period asked for, each ride's split (the same as its
// receipt's), and the sums per day in SERVICE_TIMEZONE.

/** The longest period one answer covers (a quarter). */
export const MAX_EARNINGS_DAYS = 92;

const DAY_MS = 86_400_000;
const paise = (rupees: number) => Math.round(rupees * 100) / 100;
/** A calendar date moved by whole days (dates are zone-free: UTC arithmetic on them is exact). */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export interface EarningsPeriod {
  from: string;
  to: string;
  today: string;
  /** [start, end) in epoch milliseconds: from's local midnight to the one after `to`. */
  start: number;
  end: number;
  days: string[];
}

/** The days asked for: `to` defaults to today, `from` to the Monday of `to`'s week. */
export function earningsPeriod(query: EarningsQuery, now: number, timeZone: string): EarningsPeriod {
  const today = localDate(now, timeZone);
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -((new Date(`${to}T00:00:00Z`).getUTCDay() + 6) % 7));
  // The pattern lets 2026-02-31 through; a date that does not exist is not one the calendar gives back.
  for (const date of [from, to]) if (addDays(date, 0) !== date) throw badRequest(`${date} is not a calendar date`);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (span < 1) throw badRequest('from must not be after to');
  if (span > MAX_EARNINGS_DAYS) throw badRequest(`A period is at most ${MAX_EARNINGS_DAYS} days`);
  return {
    from,
    to,
    today,
    start: startOfLocalDate(from, timeZone),
    end: startOfLocalDate(addDays(to, 1), timeZone),
    days: Array.from({ length: span }, (_, i) => addDays(from, i)),
  };
}

export type EarningRow = ReceiptRow & { completed_at: number };

/** One completed ride's part for its driver, by the rules of its pricing version (as its receipt shows it). */
export function rideEarning(ride: EarningRow, rules: PricingRules, timeZone: string): EarningRide {
  const share = driverShareOf(rules);
  const tolls = passedThroughOf(ride);
  return {
    rideId: ride.id,
    date: localDate(ride.completed_at, timeZone),
    completedAt: toIso(ride.completed_at),
    rideType: ride.ride_type as RideType,
    pricingVersion: ride.pricing_version,
    fareInInr: ride.fare,
    driverShare: share,
    tollsAndParkingInInr: tolls,
    ...splitFare(ride.fare, tolls, share),
  };
}

type Sums = Omit<EarningDay, 'date'>;

function sums(rides: readonly EarningRide[], penalties: readonly EarningPenalty[]): Sums {
  const total = (values: number[]) => paise(values.reduce((sum, value) => sum + value, 0));
  const driverAmountInInr = total(rides.map((ride) => ride.driverAmountInInr));
  const penaltiesInInr = total(penalties.map((penalty) => penalty.amountInInr));
  return {
    rides: rides.length,
    faresInInr: total(rides.map((ride) => ride.fareInInr)),
    tollsAndParkingInInr: total(rides.map((ride) => ride.tollsAndParkingInInr)),
    driverAmountInInr,
    platformFeeInInr: total(rides.map((ride) => ride.platformFeeInInr)),
    penaltiesInInr,
    netInInr: paise(driverAmountInInr - penaltiesInInr),
  };
}

/** The period's rides and penalties, per day (every day of it, oldest first) and in total; lists newest first. */
export function summariseEarnings(period: EarningsPeriod, timeZone: string, rides: readonly EarningRide[], penalties: readonly EarningPenalty[]): Earnings {
  const newestFirst = <T extends { rideId: number }>(items: readonly T[], at: (item: T) => string) =>
    [...items].sort((a, b) => at(b).localeCompare(at(a)) || b.rideId - a.rideId);
  return {
    from: period.from,
    to: period.to,
    timeZone,
    today: period.today,
    totals: sums(rides, penalties),
    days: period.days.map((date) => ({ date, ...sums(rides.filter((ride) => ride.date === date), penalties.filter((penalty) => penalty.date === date)) })),
    rides: newestFirst(rides, (ride) => ride.completedAt),
    penalties: newestFirst(penalties, (penalty) => penalty.at),
  };
}
