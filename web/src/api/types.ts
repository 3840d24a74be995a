// The API's shapes, taken from the server's own TypeBox schemas: a change there is a type error
// here. `import type` only, so none of the server's code reaches the browser.
import type { Static } from 'typebox';
import type { Paged } from './client.ts';
import type { DeclineBody as DeclineSchema, Offer } from '../../../src/modules/dispatch/offers.schemas.ts';
import type { RequestOtpBody as RequestOtpSchema, RequestOtpResponse as RequestOtpReply, SignupBody, LoginBody, TokenResponse } from '../../../src/modules/auth/auth.schemas.ts';
import type { Approval, DriverProfile, DriversByApprovalQuery as DriversQuerySchema, ProfileBody, DriverLocation } from '../../../src/modules/drivers/drivers.schemas.ts';
import type { HistoryResponse as NotificationPageSchema, Notification } from '../../../src/modules/notifications/notifications.schemas.ts';
import type { OrderBody, OrderResponse as OrderSchema, VerifyBody, VerifyResponse as VerifySchema } from '../../../src/modules/payments/payments.schemas.ts';
import type { FareEstimate } from '../../../src/modules/pricing/pricing.schemas.ts';
import type {
  BookBody,
  CancelBody as CancelSchema,
  CancellationQuote,
  EstimateQuery,
  FeedbackBody as FeedbackSchema,
  LocationResponse,
  PaymentModeBody as PaymentModeSchema,
  PublicRide,
  Ride,
  RideStatus,
  StatusBody,
} from '../../../src/modules/rides/rides.schemas.ts';
import type { Settings, SettingsUpdate } from '../../../src/modules/settings/settings.schemas.ts';
import type { UserMessages } from '../../../src/events.ts';
import type { AccountQuery, AdminUser, AuditEntry, AuditQuery, BlockBody as BlockSchema, CreateUserBody, DeletionRequest } from '../../../src/modules/admin/admin.schemas.ts';
import type { LiveDriver, LiveDrivers, LiveDriversQuery, LiveDriverState } from '../../../src/modules/admin/live-drivers.schemas.ts';
import type {
  AdminCancelBody as AdminCancelSchema,
  AdminDriver,
  AdminRide,
  AdminRidesQuery,
  Overview,
  PricingHistory,
  RejectBody as RejectSchema,
  TimelineEntry,
} from '../../../src/modules/admin/operations.schemas.ts';
import type { RefundBody, RideRefunds } from '../../../src/modules/admin/refunds.schemas.ts';
import type { Account, AccountStatus } from '../../../src/modules/auth/auth.schemas.ts';
import type { Complaint, ComplaintCategory, ComplaintsQuery, ComplaintStatus, ResolveBody as ResolveSchema } from '../../../src/modules/complaints/complaints.schemas.ts';
import type { ZonesResponse as ZonesSchema } from '../../../src/modules/insights/insights.schemas.ts';
import type { CancellationRule, PricingRules, PricingVersion, Rate } from '../../../src/modules/pricing/pricing.schemas.ts';
import type { Role } from '../../../src/platform/auth/roles.ts';
import type { MessageResponse as MessageSchema } from '../../../src/platform/schemas.ts';
import type { PaymentMode, RideType } from '../../../src/platform/vocabulary.ts';

export type {
  Account,
  AccountQuery,
  AccountStatus,
  AdminDriver,
  AdminRide,
  AdminRidesQuery,
  AdminUser,
  Approval,
  AuditEntry,
  AuditQuery,
  BookBody,
  CancellationQuote,
  CancellationRule,
  Complaint,
  DeletionRequest,
  ComplaintCategory,
  ComplaintsQuery,
  ComplaintStatus,
  CreateUserBody,
  LiveDriver,
  LiveDrivers,
  LiveDriversQuery,
  LiveDriverState,
  Overview,
  PricingHistory,
  PricingRules,
  PricingVersion,
  PublicRide,
  Rate,
  RefundBody,
  RideRefunds,
  TimelineEntry,
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
export type PaymentModeBody = Static<typeof PaymentModeSchema>;
export type DeclineBody = Static<typeof DeclineSchema>;
export type NotificationPage = Static<typeof NotificationPageSchema>;
export type OrderResponse = Static<typeof OrderSchema>;
export type VerifyResponse = Static<typeof VerifySchema>;
export type MessageResponse = Static<typeof MessageSchema>;
export type ZonesResponse = Static<typeof ZonesSchema>;
export type ZoneView = ZonesResponse['zones'][number];
export type BlockBody = Static<typeof BlockSchema>;
export type DriversQuery = Static<typeof DriversQuerySchema>;
export type AdminCancelBody = Static<typeof AdminCancelSchema>;
export type RejectBody = Static<typeof RejectSchema>;
export type ResolveBody = Static<typeof ResolveSchema>;
/** A page of an /admin list (the server's PageOf): the same shape as a page read from X-Next-Cursor. */
export type AdminPage<T> = Paged<T>;
