import { Type, type Static } from 'typebox';
import { Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';

/** E.164: a +, the country code and the number, 8 to 15 digits in all, nothing else. */
const E164 = Type.String({ pattern: '^\\+[1-9][0-9]{7,14}$', description: 'In E.164 form: +, country code, number, no spaces (+919845012345)' });

export const PhoneBody = Type.Object({ phone: E164 });
export type PhoneBody = Static<typeof PhoneBody>;

export const PhoneCodeBody = Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$', description: 'The six digits the text message carried' }) });
export type PhoneCodeBody = Static<typeof PhoneCodeBody>;

export const PhoneCodeSent = Type.Object({
  message: Type.String(),
  smsSent: Type.Boolean({ description: 'False when no SMS provider is configured: the code was written to the server log' }),
  expiresAt: Timestamp,
});
export type PhoneCodeSent = Static<typeof PhoneCodeSent>;

/** The account's own phone: only its owner is ever answered it. */
export const AccountPhone = Type.Object({
  phone: Nullable(Type.String({ description: 'The verified number; rides connect calls to it without showing it to anyone' })),
  verifiedAt: OptionalTimestamp,
  pendingPhone: Nullable(Type.String({ description: 'A number waiting for its code; the verified one stays until this one is verified' })),
  codeExpiresAt: OptionalTimestamp,
});
export type AccountPhone = Static<typeof AccountPhone>;

/** What the caller hears back: the call is being connected. Never a number. */
export const CallReceipt = Type.Object({
  callId: Type.String({ description: "The telephony provider's id of the call" }),
  message: Type.String(),
});
export type CallReceipt = Static<typeof CallReceipt>;
