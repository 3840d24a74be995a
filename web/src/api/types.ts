// The API's shapes, taken from the server's own TypeBox schemas: a change there is a type error
// here. `import type` only, so none of the server's code reaches the browser.
import type { Static } from 'typebox';
import type { DeclineBody as DeclineSchema, Offer } from '../../../src/modules/dispatch/offers.schemas.ts';
import type { RequestOtpBody as RequestOtpSchema, RequestOtpResponse as RequestOtpReply, SignupBody, LoginBody, TokenResponse } from '../../../src/modules/auth/auth.schemas.ts';
import type { DriverProfile, ProfileBody, DriverLocation } from '../../../src/modules/drivers/drivers.schemas.ts';
import type { HistoryResponse as NotificationPageSchema, Notification } from '../../../src/modules/notifications/notifications.schemas.ts';
import type { OrderBody, OrderResponse as OrderSchema, VerifyBody, VerifyResponse as VerifySchema } from '../../../src/modules/payments/payments.schemas.ts';
import type { FareEstimate } from '../../../src/modules/pricing/pricing.schemas.ts';
import type {
  BookBody,
  CancelBody as CancelSchema,
  EstimateQuery,
  FeedbackBody as FeedbackSchema,
  LocationResponse,
  Ride,
  RideStatus,
  StatusBody,
} from '../../../src/modules/rides/rides.schemas.ts';
import type { Settings, SettingsUpdate } from '../../../src/modules/settings/settings.schemas.ts';
import type { UserMessages } from '../../../src/events.ts';
import type { AdminUser, AuditEntry, AuditQuery, CreateUserBody } from '../../../src/modules/admin/admin.schemas.ts';
import type { ZonesResponse as ZonesSchema } from '../../../src/modules/insights/insights.schemas.ts';
import type { Role } from '../../../src/platform/auth/roles.ts';
import type { MessageResponse as MessageSchema } from '../../../src/platform/schemas.ts';
import type { PaymentMode, RideType } from '../../../src/platform/vocabulary.ts';

export type {
  AdminUser,
  AuditEntry,
  AuditQuery,
  BookBody,
  CreateUserBody,
  DriverLocation,
  DriverProfile,
  EstimateQuery,
  FareEstimate,
  LocationResponse,
  LoginBody,
  Notification,
  Offer,
  OrderBody,
  PaymentMode,
  ProfileBody,
  Ride,
  RideStatus,
  RideType,
  Role,
  Settings,
  SettingsUpdate,
  SignupBody,
  StatusBody,
  TokenResponse,
  UserMessages,
  VerifyBody,
};
export type RequestOtpBody = Static<typeof RequestOtpSchema>;
export type RequestOtpResponse = Static<typeof RequestOtpReply>;
export type CancelBody = Static<typeof CancelSchema>;
export type FeedbackBody = Static<typeof FeedbackSchema>;
export type DeclineBody = Static<typeof DeclineSchema>;
export type NotificationPage = Static<typeof NotificationPageSchema>;
export type OrderResponse = Static<typeof OrderSchema>;
export type VerifyResponse = Static<typeof VerifySchema>;
export type MessageResponse = Static<typeof MessageSchema>;
export type ZonesResponse = Static<typeof ZonesSchema>;
/** A page of an /admin list. */
export interface AdminPage<T> {
  items: T[];
  nextCursor: string | null;
}
