// Closed sets of values that several modules share, each with its one parser. The API takes them
// in any case and with stray spaces; the service keeps the canonical spelling.

export const RIDE_TYPES = ['bike', 'auto', 'mini', 'sedan', 'suv'] as const;
export type RideType = (typeof RIDE_TYPES)[number];
export const DEFAULT_RIDE_TYPE: RideType = 'mini';

/** The languages the apps and the service's own texts (notifications, e-mails) speak; English is the fallback. */
export const LANGUAGES = ['en', 'hi', 'kn'] as const;
export type Language = (typeof LANGUAGES)[number];

/** How a rider pays. CASH goes to the driver; the others go through the payment provider. */
export const PAYMENT_MODES = ['CASH', 'UPI', 'CARD', 'WALLET', 'NETBANKING'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
export type OnlinePaymentMode = Exclude<PaymentMode, 'CASH'>;
export const ONLINE_PAYMENT_MODES = PAYMENT_MODES.filter((mode): mode is OnlinePaymentMode => mode !== 'CASH');

function parseOneOf<T extends string>(values: readonly T[], raw: string, canonical: (value: string) => string): T | undefined {
  const value = canonical(raw.trim());
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** `bike`, ` SUV ` → the ride type, or undefined. */
export const parseRideType = (raw: string): RideType | undefined => parseOneOf(RIDE_TYPES, raw, (v) => v.toLowerCase());

/** `upi`, ` Cash ` → the payment mode, or undefined. */
export const parsePaymentMode = (raw: string): PaymentMode | undefined => parseOneOf(PAYMENT_MODES, raw, (v) => v.toUpperCase());

/** A payment mode the provider handles, or undefined (CASH included). */
export const parseOnlinePaymentMode = (raw: string): OnlinePaymentMode | undefined => parseOneOf(ONLINE_PAYMENT_MODES, raw, (v) => v.toUpperCase());

/** How rides find drivers (DISPATCH_MODE): drivers pick from the open list, each ride goes to its nearest driver, or rounds pair them all at once. */
export const DISPATCH_MODES = ['broadcast', 'nearest', 'batched'] as const;
export type DispatchMode = (typeof DISPATCH_MODES)[number];

/** Why a user got an in-app notification (its `eventType`); every sender names one of these. */
export const NOTIFICATION_EVENTS = [
  'RIDE_REQUESTED',
  'RIDE_ACCEPTED',
  'DRIVER_ARRIVING',
  'RIDE_STARTED',
  'RIDE_COMPLETED',
  'RIDE_CANCELLED',
  'NO_DRIVER_FOUND',
  'DRIVER_NO_SHOW',
  'RIDE_REMINDER',
  'PAYMENT_RECEIVED',
  'PAYMENT_REFUNDED',
  'DRIVER_APPROVED',
  'DRIVER_REJECTED',
  'DOCUMENT_APPROVED',
  'DOCUMENT_REJECTED',
  'DOCUMENT_EXPIRING',
  'DOCUMENT_EXPIRED',
  'COMPLAINT_RESOLVED',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
