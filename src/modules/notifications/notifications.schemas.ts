import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { Nullable, OptionalTimestamp } from '../../platform/schemas.ts';
import { NOTIFICATION_EVENTS } from '../../platform/vocabulary.ts';

export const Notification = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  rideId: Nullable(Type.Integer()),
  title: Type.String({ maxLength: 120 }),
  message: Type.String({ maxLength: 800 }),
  channel: Type.String({ examples: ['in_app'] }),
  eventType: Type.String({ description: `Why you were notified: ${NOTIFICATION_EVENTS.join(', ')}`, examples: ['RIDE_ACCEPTED', 'DRIVER_ARRIVING', 'PAYMENT_RECEIVED'] }),
  read: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: OptionalTimestamp,
  status: Type.String({ examples: ['delivered'] }),
});
export type Notification = Static<typeof Notification>;

export const HistoryQuery = PageQuery;

export const HistoryResponse = Type.Object({
  notifications: Type.Array(Notification),
  unreadCount: Type.Integer({ description: 'All unread notifications of the caller, not only this page' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next (older) page' })),
});

export const NotificationIdParams = Type.Object({ notificationId: Type.Integer({ minimum: 1 }) });
