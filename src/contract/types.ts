// The API's shapes for its clients (the web apps, the simulator, the tests), taken from the
// server's own TypeBox schemas: a field renamed on the server is a type error in every client.
// Types only: nothing of the server runs where these are imported.
import type { Static } from 'typebox';
import type { DeclineBody as DeclineSchema, Offer, UpcomingRides } from '../modules/dispatch/offers.schemas.ts';
import type { RequestOtpBody as RequestOtpSchema, RequestOtpResponse as RequestOtpReply, SignupBody, LoginBody, TokenResponse } from '../modules/auth/auth.schemas.ts';
import type { Approval, DriverProfile, DriversByApprovalQuery as DriversQuerySchema, ProfileBody, DriverLocation, PositionBody } from '../modules/drivers/drivers.schemas.ts';
import type { HistoryResponse as NotificationPageSchema, Notification } from '../modules/notifications/notifications.schemas.ts';
import type { OrderBody, OrderResponse as OrderSchema, VerifyBody, VerifyResponse as VerifySchema } from '../modules/payments/payments.schemas.ts';
import type { FareEstimate } from '../modules/pricing/pricing.schemas.ts';
import type {
  BookBody,
  ChargeBody,
  CancelBody as CancelSchema,
  CancellationQuote,
  EstimateQuery,
  FeedbackBody as FeedbackSchema,
  LocationResponse,
  PaymentModeBody as PaymentModeSchema,
  PublicRide,
  Ride,
  RideStatus,
  RideStatusResponse,
  StatusBody,
} from '../modules/rides/rides.schemas.ts';
import type { Settings, SettingsUpdate } from '../modules/settings/settings.schemas.ts';
import type { SharedTrip, ShareLink } from '../modules/safety/safety.schemas.ts';
import type { DocumentKind, DriverDocument, DriverDocuments, UploadDocumentBody } from '../modules/drivers/documents.schemas.ts';
import type { AccountPhone, CallReceipt, PhoneBody, PhoneCodeBody, PhoneCodeSent } from '../modules/safety/phones.schemas.ts';
import type { PushEndpointBody, PushKey, PushPayload, PushSubscribed, PushSubscriptionBody } from '../modules/push/push.schemas.ts';
import type { Incident, IncidentStatus, IncidentsQuery, NoteBody, SosBody, SosReceipt } from '../modules/safety/incidents.schemas.ts';
import type { AccountQuery, AdminUser, AuditEntry, AuditQuery, BlockBody as BlockSchema, CreateUserBody, DeletionRequest } from '../modules/admin/admin.schemas.ts';
import type { LiveDriver, LiveDrivers, LiveDriversQuery, LiveDriverState } from '../modules/admin/live-drivers.schemas.ts';
import type {
  AdminCancelBody as AdminCancelSchema,
  AdminDriver,
  AdminRide,
  AdminRidesQuery,
  Overview,
  PricingHistory,
  RejectBody as RejectSchema,
  SavePricingBody,
  TimelineEntry,
} from '../modules/admin/operations.schemas.ts';
import type { RefundBody, RideRefunds } from '../modules/admin/refunds.schemas.ts';
import type { ComplianceBreach, ComplianceQuery, ComplianceReport } from '../modules/admin/compliance.schemas.ts';
import type { Account, AccountStatus } from '../modules/auth/auth.schemas.ts';
import type { Complaint, ComplaintCategory, ComplaintsQuery, ComplaintStatus, ResolveBody as ResolveSchema } from '../modules/complaints/complaints.schemas.ts';
import type { ZonesResponse as ZonesSchema } from '../modules/insights/insights.schemas.ts';
import type { BehaviourFit, BehaviourQuery, SupplyHistory, SupplyQuery, SupplySample } from '../modules/replay/replay.schemas.ts';
import type { WhatIfBody, WhatIfJob } from '../modules/replay/what-if.schemas.ts';
import type { CancellationRule, ComplianceProfile, FareBreakdown, NightRule, PricingRules, PricingVersion, PublicPricingVersion, Rate, TripCharge, WaitingRule } from '../modules/pricing/pricing.schemas.ts';
import type { PageQuery } from '../platform/pagination.ts';
import type { Role } from '../platform/auth/roles.ts';
import type { MessageResponse as MessageSchema } from '../platform/schemas.ts';
import type { UserMessage } from '../platform/realtime/hub.ts';
import type { ClientMessages, UserMessages } from '../events.ts';
import type { FarePart, Receipt, ReceiptInputs, SignedReceipt } from '../modules/rides/receipt.schemas.ts';
import type { EarningDay, EarningPenalty, EarningRide, Earnings, EarningsQuery } from '../modules/rides/earnings.schemas.ts';
import type { ReceiptKey, ReceiptKeySet } from '../platform/receipt-signing.ts';
import type { ChannelMessage, ClientMessageOf } from '../platform/realtime/client-messages.ts';
import type { ConfirmDestinationBody, DestinationBody, DestinationChange, DestinationQuote } from '../modules/rides/destination-change.schemas.ts';
import type { RideStop, StopBody as StopSchema } from '../modules/rides/ride-stops.schemas.ts';

export type {
  Account,
  AccountPhone,
  AccountQuery,
  AccountStatus,
  AdminDriver,
  AdminRide,
  AdminRidesQuery,
  AdminUser,
  Approval,
  AuditEntry,
  AuditQuery,
  BehaviourFit,
  BehaviourQuery,
  BookBody,
  ChargeBody,
  CallReceipt,
  CancellationQuote,
  CancellationRule,
  Complaint,
  ComplianceBreach,
  ComplianceProfile,
  ComplianceQuery,
  ComplianceReport,
  ComplaintCategory,
  ComplaintsQuery,
  ComplaintStatus,
  CreateUserBody,
  DeletionRequest,
  DocumentKind,
  DriverDocument,
  DriverDocuments,
  DriverLocation,
  DriverProfile,
  EarningDay,
  EarningPenalty,
  EarningRide,
  Earnings,
  EarningsQuery,
  EstimateQuery,
  FareBreakdown,
  FareEstimate,
  Incident,
  IncidentStatus,
  IncidentsQuery,
  FarePart,
  LiveDriver,
  LiveDrivers,
  LiveDriversQuery,
  LiveDriverState,
  LocationResponse,
  LoginBody,
  NightRule,
  NoteBody,
  Notification,
  Offer,
  UpcomingRides,
  OrderBody,
  Overview,
  PageQuery,
  PhoneBody,
  PhoneCodeBody,
  PhoneCodeSent,
  PushEndpointBody,
  PushKey,
  PushPayload,
  PushSubscribed,
  PushSubscriptionBody,
  PricingHistory,
  PricingRules,
  SavePricingBody,
  PricingVersion,
  ProfileBody,
  PublicPricingVersion,
  PublicRide,
  Rate,
  Receipt,
  ReceiptInputs,
  ReceiptKey,
  ReceiptKeySet,
  RefundBody,
  Ride,
  RideRefunds,
  RideStatus,
  RideStatusResponse,
  Role,
  Settings,
  SettingsUpdate,
  SharedTrip,
  ShareLink,
  SignedReceipt,
  SignupBody,
  SosBody,
  SosReceipt,
  StatusBody,
  SupplyHistory,
  SupplyQuery,
  SupplySample,
  TimelineEntry,
  TokenResponse,
  TripCharge,
  VerifyBody,
  UploadDocumentBody,
  WaitingRule,
  WhatIfBody,
  WhatIfJob,
};
export type { DispatchMode, PaymentMode, RideType } from '../platform/vocabulary.ts';
export type { Point } from '../platform/geo/geo.ts';
/** What the web apps read from GET /app/config.json. */
export type { WebAppSettings } from '../platform/web-apps.ts';
export type { VehicleType } from '../modules/drivers/vehicles.ts';
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
/** A position as clients send it (REST and the realtime channel). */
export type Position = Static<typeof PositionBody>;
/** A stop as a booking names it. */
export type StopBody = Static<typeof StopSchema>;
export type { ConfirmDestinationBody, DestinationBody, DestinationChange, DestinationQuote, RideStop };

export type { ClientMessages, RidePosition, UserMessages } from '../events.ts';
/** A message of the realtime channel about the user's rides, offers and notifications, narrowed by its `type`. */
export type ServerMessage = { [K in keyof UserMessages]: UserMessage<UserMessages, K> }[keyof UserMessages];
/** The channel's answers to the client's own messages: no `seq`, never replayed (docs/realtime.md). */
export type ChannelReply = { type: 'ready'; userId: number; seq: number } | { type: 'resync'; seq: number } | { type: 'pong' } | { type: 'error'; code: string; message: string };
/**
 * What a client sends over the channel: the channel's own `auth` and `ping`, and each type a module
 * registers (src/events.ts `ClientMessages`, whose fields come from the schema the server checks).
 */
export type ClientMessage = ChannelMessage | ClientMessageOf<ClientMessages>;
