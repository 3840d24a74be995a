import type { PaymentMode, RideStatus, RideType } from '../api/types.ts';

// Words for the API's closed lists. Typed by the server's lists, so a value added there must get
// its words here before the apps compile.

export const RIDE_TYPE_LABELS: Record<RideType, string> = {
  bike: 'Bike',
  auto: 'Auto',
  mini: 'Mini',
  sedan: 'Sedan',
  suv: 'SUV',
};

export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = {
  CASH: 'Cash',
  UPI: 'UPI',
  CARD: 'Card',
  WALLET: 'Wallet',
  NETBANKING: 'Net banking',
};

export const STATUS_LABELS: Record<RideStatus, string> = {
  REQUESTED: 'Finding a driver',
  ACCEPTED: 'Driver on the way',
  PICKED: 'On the trip',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
};

/** The parts of a fare as receipts name them (docs/payments.md "Receipts"); a part not listed shows its own name. */
export const FARE_PART_LABELS: Record<string, string> = {
  base: 'Base fare',
  distance: 'Distance',
  time: 'Time',
  minimum: 'Up to the minimum fare',
  surge: 'Surge',
  night: 'Night',
  waiting: 'Waiting',
  stops: 'Stops',
  tolls: 'Tolls',
  parking: 'Parking',
  rounding: 'Rounding',
  cancellationFee: 'Cancellation fee',
};

export const keysOf = <K extends string>(labels: Record<K, string>): K[] => Object.keys(labels) as K[];
