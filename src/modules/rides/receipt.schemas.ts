import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/schemas.ts';
import { RIDE_TYPES } from '../../platform/vocabulary.ts';

// A ride's receipt: what was charged, what it was computed from, and who gets what; signed so that
// anyone can check it (docs/payments.md "Receipts"). Every field is here: the answer is written by
// this schema, and a field it left out would break the signature.

export const RECEIPT_KINDS = ['trip', 'cancellation'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const FarePart = Type.Object({
  part: Type.String({
    description:
      'base, distance, time, minimum (the top-up to the minimum fare), surge (what the multiplier added), night, waiting, stops, tolls, parking, rounding (to the whole rupee), cancellationFee',
  }),
  amountInInr: Type.Number({ description: 'Rupees (may carry paise); the parts add up to the fare' }),
});
export type FarePart = Static<typeof FarePart>;

export const ReceiptInputs = Type.Object({
  distanceKm: Type.Number({ description: 'The distance the fare was computed from' }),
  minutes: Type.Integer({ description: 'The driving minutes the fare was computed from' }),
  waitingMinutes: Type.Integer({ description: 'Started minutes waited at the pickup beyond the free ones, charged per minute' }),
  zone: Nullable(Type.String({ description: 'The H3 zone of the pickup, whose surge applied' })),
  surgeMultiplier: Type.Number(),
  night: Type.Boolean({ description: 'Whether the night window applied (never under pricing rules without one)' }),
  stops: Type.Integer({ description: 'Stops on the way, charged per stop' }),
  tollsInInr: Type.Number({ description: 'Tolls the driver added, passed through at cost' }),
  parkingInInr: Type.Number({ description: 'Parking the driver added, passed through at cost' }),
  cancelledWhile: Nullable(Type.String({ enum: ['ACCEPTED', 'PICKED'], description: 'For a cancellation fee: the status the rider cancelled in' })),
});
export type ReceiptInputs = Static<typeof ReceiptInputs>;

/** The signed part. */
export const Receipt = Type.Object({
  receiptVersion: Type.Literal(1),
  kind: Type.Enum(RECEIPT_KINDS, { description: 'trip: a completed ride; cancellation: the fee a rider paid for cancelling' }),
  rideId: Type.Integer(),
  rideType: Type.Enum(RIDE_TYPES),
  currency: Type.Literal('INR'),
  endedAt: Timestamp,
  pricingVersion: Type.Integer({ description: 'Public at GET /pricing/versions/{pricingVersion}: recompute the fare from it and the inputs' }),
  inputs: ReceiptInputs,
  breakdown: Type.Array(FarePart),
  fare: Type.Integer({ description: 'What the rider was charged, INR' }),
  driverShare: Type.Number({ description: "The pricing version's share of the fare (tolls and parking aside) that is the driver's" }),
  driverAmountInInr: Type.Number({ description: "The driver's part: the share of the fare without tolls and parking, plus all of those" }),
  platformFeeInInr: Type.Number({ description: 'The rest of the fare' }),
});
export type Receipt = Static<typeof Receipt>;

export const SignedReceipt = Type.Object({
  receipt: Receipt,
  signature: Type.String({
    description:
      "A detached compact JWS (header..signature, EdDSA) over the receipt's canonical JSON (RFC 8785: keys sorted, no whitespace); the header's kid names the key at /.well-known/receipt-keys",
  }),
});
export type SignedReceipt = Static<typeof SignedReceipt>;
