import type { PaymentMode, RideStatus, RideType } from '../api/types.ts';
import { labelsOf } from '../i18n/i18n.ts';

// Words for the API's closed lists, in the app's language (the catalogue's rideType.*, payment.*,
// status.*, farePart.*). Typed by the server's lists, so a value added there must be listed here,
// and get its message, before the apps compile.

/** The list as given, which must name every value of K (in the order the apps show them). */
export const every =
  <K extends string>() =>
  <const L extends readonly K[]>(list: L & ([K] extends [L[number]] ? unknown : never)): L =>
    list;

export const RIDE_TYPE_LABELS = labelsOf('rideType.', every<RideType>()(['bike', 'auto', 'mini', 'sedan', 'suv']));

export const PAYMENT_MODE_LABELS = labelsOf('payment.', every<PaymentMode>()(['CASH', 'UPI', 'CARD', 'WALLET', 'NETBANKING']));

export const STATUS_LABELS = labelsOf('status.', every<RideStatus>()(['REQUESTED', 'ACCEPTED', 'PICKED', 'COMPLETED', 'CANCELLED']));

/** The parts of a fare as receipts name them (docs/payments.md "Receipts"); a part not listed shows its own name. */
export const FARE_PART_LABELS: Partial<Record<string, string>> = labelsOf('farePart.', [
  'base',
  'distance',
  'time',
  'minimum',
  'surge',
  'night',
  'waiting',
  'stops',
  'tolls',
  'parking',
  'rounding',
  'cancellationFee',
] as const);

export const keysOf = <K extends string>(labels: Record<K, string>): K[] => Object.keys(labels) as K[];
