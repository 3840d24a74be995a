import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';

/** What a complaint is about: a closed list, so operators can sort their queue. */
export const COMPLAINT_CATEGORIES = ['safety', 'behaviour', 'fare', 'payment', 'route', 'vehicle', 'lost_item', 'app', 'other'] as const;
export type ComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number];

export const COMPLAINT_STATUSES = ['open', 'resolved'] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** The complainant's part in the ride. */
export const COMPLAINANT_PARTIES = ['rider', 'driver'] as const;
export type ComplainantParty = (typeof COMPLAINANT_PARTIES)[number];

const TEXT_MAX = 2000;
const Text = (description: string) => Type.String({ minLength: 1, maxLength: TEXT_MAX, pattern: '\\S', description });

export const ComplaintBody = Type.Object({
  category: Type.Enum(COMPLAINT_CATEGORIES),
  message: Text('What happened, in your words'),
});
export type ComplaintBody = Static<typeof ComplaintBody>;

export const ResolveBody = Type.Object({
  resolution: Text('What support did or decided; the complainant reads it in their notification'),
});

export const Complaint = Type.Object({
  id: Type.Integer(),
  rideId: Type.Integer(),
  filedBy: Type.Integer({ description: 'The user who filed it' }),
  party: Type.Enum(COMPLAINANT_PARTIES, { description: "The complainant's part in the ride" }),
  category: Type.Enum(COMPLAINT_CATEGORIES),
  message: Type.String(),
  status: Type.Enum(COMPLAINT_STATUSES),
  resolution: Nullable(Type.String()),
  resolvedBy: Nullable(Type.Integer({ description: 'The operator who resolved it' })),
  resolvedAt: OptionalTimestamp,
  createdAt: Timestamp,
});
export type Complaint = Static<typeof Complaint>;

export const ComplaintIdParams = Type.Object({ complaintId: Type.Integer({ minimum: 1 }) });

export const ComplaintsQuery = Type.Object({ status: Type.Optional(Type.Enum(COMPLAINT_STATUSES)), ...PageQuery.properties });
export type ComplaintsQuery = Static<typeof ComplaintsQuery>;
