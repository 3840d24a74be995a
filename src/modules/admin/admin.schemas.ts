import { Type, type Static } from 'typebox';
import { ROLES } from '../../platform/auth/roles.ts';
import { Account, ACCOUNT_STATUSES } from '../auth/auth.schemas.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { IdFilter } from '../../platform/schemas.ts';

/** Admin lists answer one page and the cursor of the next (null on the last page). */
export const PageOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const UserIdParams = Type.Object({ userId: Type.Integer({ minimum: 1 }) });

export const CreateUserBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  email: Type.String({ minLength: 3, maxLength: 254, description: 'Trimmed and compared case-insensitively' }),
  password: Type.String({ minLength: 8, maxLength: 128 }),
  role: Type.Enum(ROLES),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

export const AdminUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: Type.Enum(ROLES),
});
export type AdminUser = Static<typeof AdminUser>;

export const AccountQuery = Type.Object({
  role: Type.Optional(Type.Enum(ROLES)),
  status: Type.Optional(Type.Enum(ACCOUNT_STATUSES)),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name or e-mail, any case' })),
  ...PageQuery.properties,
});
export type AccountQuery = Static<typeof AccountQuery>;

/** An account in the deletion-request queue. */
export const DeletionRequest = Type.Object({
  ...Account.properties,
  deletionRequestedAt: Type.String({ format: 'date-time', description: 'When the user asked (settings deleteAccountRequested turned on)' }),
});
export type DeletionRequest = Static<typeof DeletionRequest>;

export const BlockBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why, for the audit trail and other operators (not shown to the user)' }),
});

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  actorId: Type.Integer(),
  action: Type.String({ description: '`<thing>.<verb>`, e.g. `user.create`, `user.block`, `pricing.update`' }),
  target: Type.Object({ type: Type.String(), id: Type.String() }),
  before: Type.Unknown({ description: 'The target before the change (null for a creation)' }),
  after: Type.Unknown({ description: 'The target after the change (null for a deletion)' }),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The id the service gave the request that made the change (its X-Request-Id answer and log lines)' }),
  clientRequestId: Type.Union([Type.String(), Type.Null()], { description: 'The X-Request-Id the client sent with that request, as it sent it: a label of the client’s, not evidence' }),
  at: Type.String({ format: 'date-time' }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object({
  actorId: Type.Optional(IdFilter),
  action: Type.Optional(Type.String({ maxLength: 64, pattern: '^[a-z_.]+$' })),
  targetType: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z_]+$' })),
  targetId: Type.Optional(Type.String({ maxLength: 32, pattern: '^[0-9A-Za-z_-]+$' })),
  ...PageQuery.properties,
});
export type AuditQuery = Static<typeof AuditQuery>;
