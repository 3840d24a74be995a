import { Type, type Static } from 'typebox';
import { ROLES } from '../../platform/auth/roles.ts';
import { Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'Trimmed and compared case-insensitively' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const RoleName = Type.Enum(ROLES);

export const RequestOtpBody = Type.Object({ name: Name, email: Email });
export const RequestOtpResponse = Type.Object({
  message: Type.String(),
  emailSent: Type.Boolean({ description: 'false when SMTP is not configured and the code went to the server log' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const SignupBody = Type.Object({
  name: Name,
  email: Email,
  password: Type.String({ minLength: 8, maxLength: 128 }),
  otp: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code from the e-mail' }),
  role: Type.Optional(RoleName),
});
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 128 }),
  role: Type.Optional(Type.String({ description: 'Requested role; a role the account does not hold falls back to its own' })),
});
export type LoginBody = Static<typeof LoginBody>;

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) });

export const TokenResponse = Type.Object({
  token: Type.String({ description: 'Same as accessToken' }),
  accessToken: Type.String(),
  refreshToken: Type.String(),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds until the access token expires' }),
  id: Type.Integer(),
  name: Type.String(),
  role: RoleName,
});
export type TokenResponse = Static<typeof TokenResponse>;

/** active; blocked by an operator (login refused, tokens ended); deleted: erased, the row kept anonymised so its id is never reused. */
export const ACCOUNT_STATUSES = ['active', 'blocked', 'deleted'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** An account as operators see it. */
export const Account = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: RoleName,
  status: Type.Enum(ACCOUNT_STATUSES),
  statusReason: Nullable(Type.String({ description: "The operator's reason for a block" })),
  statusChangedAt: OptionalTimestamp,
  createdAt: Timestamp,
});
export type Account = Static<typeof Account>;
