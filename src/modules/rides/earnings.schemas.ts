import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';
import { RIDE_TYPES } from '../../platform/vocabulary.ts';

// GET /drivers/me/earnings: what a driver earned in a period, per ride and per day (SERVICE_TIMEZONE days).

const LocalDate = (description: string) => Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description });

export const EarningsQuery = Type.Object({
  from: Type.Optional(LocalDate('First day, YYYY-MM-DD in SERVICE_TIMEZONE (default: the Monday of `to`\'s week)')),
  to: Type.Optional(LocalDate('Last day, included (default: today)')),
});
export type EarningsQuery = Static<typeof EarningsQuery>;

const Rupees = (description: string) => Type.Number({ description: `${description}, INR (may carry paise)` });

export const EarningRide = Type.Object({
  rideId: Type.Integer(),
  date: Type.String({ description: 'The day it was completed (SERVICE_TIMEZONE)' }),
  completedAt: Timestamp,
  rideType: Type.Enum(RIDE_TYPES),
  pricingVersion: Type.Integer(),
  fareInInr: Type.Integer({ description: 'What the rider paid' }),
  driverShare: Type.Number({ description: "The pricing version's driver share (0.8 for versions without one)" }),
  tollsAndParkingInInr: Rupees('Passed through whole to the driver'),
  driverAmountInInr: Rupees("The driver's part: the share of the fare without tolls and parking, plus those"),
  platformFeeInInr: Rupees('The rest'),
});
export type EarningRide = Static<typeof EarningRide>;

export const EarningPenalty = Type.Object({
  rideId: Type.Integer(),
  date: Type.String(),
  at: Timestamp,
  amountInInr: Rupees('Charged to the driver for cancelling without a valid reason'),
});
export type EarningPenalty = Static<typeof EarningPenalty>;

const Sums = {
  rides: Type.Integer({ description: 'Rides completed' }),
  faresInInr: Rupees('What riders paid'),
  tollsAndParkingInInr: Rupees('Of which tolls and parking, all the driver\'s'),
  driverAmountInInr: Rupees("The driver's parts"),
  platformFeeInInr: Rupees("The platform's fees"),
  penaltiesInInr: Rupees('Cancellation penalties'),
  netInInr: Rupees("The driver's parts less the penalties"),
};

export const EarningDay = Type.Object({ date: Type.String({ description: 'YYYY-MM-DD, SERVICE_TIMEZONE' }), ...Sums });
export type EarningDay = Static<typeof EarningDay>;

export const Earnings = Type.Object({
  from: Type.String(),
  to: Type.String(),
  timeZone: Type.String({ description: 'SERVICE_TIMEZONE: where each day begins' }),
  today: Type.String({ description: "Today's date there" }),
  totals: Type.Object(Sums),
  days: Type.Array(EarningDay, { description: 'Every day of the period, oldest first (days without rides are zeros)' }),
  rides: Type.Array(EarningRide, { description: 'Rides completed in the period, newest first' }),
  penalties: Type.Array(EarningPenalty, { description: 'Cancellation penalties in the period, newest first' }),
});
export type Earnings = Static<typeof Earnings>;
