import type * as T from './types.ts';

// Every endpoint a client calls, once: its method, its path (Fastify's `:name` for a path
// parameter), who may call it and the types of its query, body and answer. The clients build
// requests from this table instead of writing paths of their own (the contract test checks that),
// and the same test asks the server's OpenAPI document that every route here exists.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `user`: a bearer token is required; `public`: none is sent; `either`: sent when there is one (the answer then says more). */
export type Access = 'user' | 'public' | 'either';

/** An endpoint. `Q`, `B` and `R` exist only for the type-checker: their values are never set. */
export interface Route<P extends string = string, Q = unknown, B = unknown, R = unknown> {
  readonly method: Method;
  readonly path: P;
  readonly access: Access;
  /** Takes an `Idempotency-Key` header (docs/operations.md). */
  readonly idempotent: boolean;
  readonly types?: { query: Q; body: B; response: R };
}

/** The names of a path's `:name` parameters (a name ends at a `/` or, as in `:token.json`, at a `.`). */
export type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? BareName<Name> | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? BareName<Name> : never;
type BareName<N extends string> = N extends `${infer Name}.${string}` ? Name : N;

/** A phantom value standing for a type in the table below. */
const of = <X>(): X => undefined as X;

interface Shape<Q, B, R> {
  response: R;
  query?: Q;
  body?: B;
  access?: Access;
  idempotent?: true;
}

function route<const P extends string, R, Q = never, B = never>(method: Method, path: P, shape: Shape<Q, B, R>): Route<P, Q, B, R> {
  return { method, path, access: shape.access ?? 'user', idempotent: shape.idempotent ?? false };
}

/** A page of an /admin list: its items and the next page's cursor (null on the last). */
export interface AdminPage<Item> {
  items: Item[];
  nextCursor: string | null;
}

type Paging = { cursor?: string; limit?: number };

export const routes = {
  auth: {
    requestOtp: route('POST', '/auth/signup/request-otp', { access: 'public', body: of<T.RequestOtpBody>(), response: of<T.RequestOtpResponse>() }),
    signup: route('POST', '/auth/signup', { access: 'public', body: of<T.SignupBody>(), response: of<T.MessageResponse>() }),
    login: route('POST', '/auth/login', { access: 'public', body: of<T.LoginBody>(), response: of<T.TokenResponse>() }),
    refresh: route('POST', '/auth/refresh', { access: 'public', body: of<{ refreshToken: string }>(), response: of<T.TokenResponse>() }),
    logout: route('POST', '/auth/logout', { access: 'public', body: of<{ refreshToken: string }>(), response: of<T.MessageResponse>() }),
  },
  rides: {
    estimate: route('GET', '/rides/estimate', { access: 'public', query: of<T.EstimateQuery>(), response: of<T.FareEstimate>() }),
    book: route('POST', '/rides/book', { idempotent: true, body: of<T.BookBody>(), response: of<T.Ride>() }),
    active: route('GET', '/rides/active', { response: of<T.Ride[]>() }),
    history: route('GET', '/rides/history', { query: of<Paging>(), response: of<T.Ride[]>() }),
    requested: route('GET', '/rides/requested', { query: of<Paging>(), response: of<T.PublicRide[]>() }),
    status: route('GET', '/rides/status/:rideId', { access: 'either', response: of<T.RideStatusResponse>() }),
    change: route('POST', '/rides/status/:rideId', { body: of<T.StatusBody>(), response: of<T.Ride>() }),
    cancellationQuote: route('GET', '/rides/cancel/:rideId', { response: of<T.CancellationQuote>() }),
    cancel: route('POST', '/rides/cancel/:rideId', { body: of<T.CancelBody>(), response: of<T.Ride>() }),
    feedback: route('POST', '/rides/feedback/:rideId', { body: of<T.FeedbackBody>(), response: of<T.Ride>() }),
    receipt: route('GET', '/rides/:rideId/receipt', { response: of<T.SignedReceipt>() }),
    paymentMode: route('POST', '/rides/:rideId/payment-mode', { body: of<T.PaymentModeBody>(), response: of<T.Ride>() }),
    location: route('POST', '/rides/location/:rideId', { body: of<T.Position>(), response: of<T.LocationResponse>() }),
    stopArrived: route('POST', '/rides/:rideId/stops/:index/arrived', { response: of<T.Ride>() }),
    destinationQuote: route('POST', '/rides/:rideId/destination', { body: of<T.DestinationBody>(), response: of<T.DestinationQuote>() }),
    confirmDestination: route('POST', '/rides/:rideId/destination/confirm', { body: of<T.ConfirmDestinationBody>(), response: of<T.Ride>() }),
    charge: route('POST', '/rides/:rideId/charges', { body: of<T.ChargeBody>(), response: of<T.Ride>() }),
  },
  safety: {
    share: route('POST', '/rides/:rideId/share', { response: of<T.ShareLink>() }),
    stopSharing: route('DELETE', '/rides/:rideId/share', { response: of<T.MessageResponse>() }),
    shared: route('GET', '/share/:token.json', { access: 'public', response: of<T.SharedTrip>() }),
    sos: route('POST', '/rides/:rideId/sos', { body: of<T.SosBody>(), response: of<T.SosReceipt>() }),
    phone: route('GET', '/auth/phone', { response: of<T.AccountPhone>() }),
    sendPhoneCode: route('POST', '/auth/phone', { body: of<T.PhoneBody>(), response: of<T.PhoneCodeSent>() }),
    verifyPhone: route('POST', '/auth/phone/verify', { body: of<T.PhoneCodeBody>(), response: of<T.AccountPhone>() }),
    call: route('POST', '/rides/:rideId/call', { response: of<T.CallReceipt>() }),
  },
  push: {
    key: route('GET', '/push/key', { access: 'public', response: of<T.PushKey>() }),
    subscribe: route('POST', '/push/subscriptions', { body: of<T.PushSubscriptionBody>(), response: of<T.PushSubscribed>() }),
    unsubscribe: route('DELETE', '/push/subscriptions', { body: of<T.PushEndpointBody>(), response: of<T.MessageResponse>() }),
  },
  drivers: {
    profile: route('GET', '/drivers/me/profile', { response: of<T.DriverProfile>() }),
    saveProfile: route('PUT', '/drivers/me/profile', { body: of<T.ProfileBody>(), response: of<T.DriverProfile>() }),
    report: route('PUT', '/drivers/me/location', { body: of<T.Position>(), response: of<T.DriverLocation>() }),
    location: route('GET', '/drivers/me/location', { response: of<T.DriverLocation>() }),
    goOffline: route('DELETE', '/drivers/me/location', { response: of<T.MessageResponse>() }),
    documents: route('GET', '/drivers/me/documents', { response: of<T.DriverDocuments>() }),
    uploadDocument: route('PUT', '/drivers/me/documents/:kind', { body: of<T.UploadDocumentBody>(), response: of<T.DriverDocument>() }),
    earnings: route('GET', '/drivers/me/earnings', { query: of<T.EarningsQuery>(), response: of<T.Earnings>() }),
  },
  offers: {
    pending: route('GET', '/drivers/me/offers', { response: of<T.Offer[]>() }),
    accept: route('POST', '/drivers/me/offers/:offerId/accept', { response: of<T.Ride>() }),
    decline: route('POST', '/drivers/me/offers/:offerId/decline', { body: of<T.DeclineBody>(), response: of<T.Offer>() }),
  },
  upcoming: {
    list: route('GET', '/drivers/me/upcoming', { response: of<T.UpcomingRides>() }),
    accept: route('POST', '/drivers/me/upcoming/:rideId/accept', { response: of<T.Ride>() }),
  },
  payments: {
    order: route('POST', '/payments/order', { idempotent: true, body: of<T.OrderBody>(), response: of<T.OrderResponse>() }),
    verify: route('POST', '/payments/verify', { access: 'public', body: of<T.VerifyBody>(), response: of<T.VerifyResponse>() }),
  },
  receipts: {
    keys: route('GET', '/.well-known/receipt-keys', { access: 'public', response: of<T.ReceiptKeySet>() }),
  },
  pricing: {
    version: route('GET', '/pricing/versions/:version', { access: 'public', response: of<T.PublicPricingVersion>() }),
  },
  settings: {
    get: route('GET', '/user-settings', { response: of<T.Settings>() }),
    update: route('PUT', '/user-settings', { body: of<T.SettingsUpdate>(), response: of<T.Settings>() }),
  },
  notifications: {
    history: route('GET', '/notifications/history', { query: of<Paging>(), response: of<T.NotificationPage>() }),
    markRead: route('POST', '/notifications/mark-read/:notificationId', { response: of<T.MessageResponse>() }),
    markAllRead: route('POST', '/notifications/mark-all-read', { response: of<T.MessageResponse>() }),
  },
  admin: {
    overview: route('GET', '/admin/overview', { response: of<T.Overview>() }),
    liveDrivers: route('GET', '/admin/drivers/live', { query: of<T.LiveDriversQuery>(), response: of<T.LiveDrivers>() }),
    zones: route('GET', '/admin/zones', { response: of<T.ZonesResponse>() }),
    rides: route('GET', '/admin/rides', { query: of<Partial<T.AdminRidesQuery>>(), response: of<AdminPage<T.Ride>>() }),
    ride: route('GET', '/admin/rides/:rideId', { response: of<T.AdminRide>() }),
    cancelRide: route('POST', '/admin/rides/:rideId/cancel', { body: of<T.AdminCancelBody>(), response: of<T.Ride>() }),
    refund: route('POST', '/admin/rides/:rideId/refund', { body: of<T.RefundBody>(), response: of<T.RideRefunds>() }),
    users: route('GET', '/admin/users', { query: of<Partial<T.AccountQuery>>(), response: of<AdminPage<T.Account>>() }),
    createUser: route('POST', '/admin/users', { body: of<T.CreateUserBody>(), response: of<T.AdminUser>() }),
    block: route('POST', '/admin/users/:userId/block', { body: of<T.BlockBody>(), response: of<T.Account>() }),
    unblock: route('POST', '/admin/users/:userId/unblock', { response: of<T.Account>() }),
    erase: route('DELETE', '/admin/users/:userId', { response: of<T.Account>() }),
    deletionRequests: route('GET', '/admin/deletion-requests', { query: of<Paging>(), response: of<AdminPage<T.DeletionRequest>>() }),
    drivers: route('GET', '/admin/drivers', { query: of<Partial<T.DriversQuery>>(), response: of<AdminPage<T.AdminDriver>>() }),
    approve: route('POST', '/admin/drivers/:driverId/approve', { response: of<T.DriverProfile>() }),
    reject: route('POST', '/admin/drivers/:driverId/reject', { body: of<T.RejectBody>(), response: of<T.DriverProfile>() }),
    driverDocuments: route('GET', '/admin/drivers/:driverId/documents', { response: of<T.DriverDocuments>() }),
    documentFile: route('GET', '/admin/drivers/:driverId/documents/:kind/file', { response: of<Blob>() }),
    approveDocument: route('POST', '/admin/drivers/:driverId/documents/:kind/approve', { response: of<T.DriverDocument>() }),
    rejectDocument: route('POST', '/admin/drivers/:driverId/documents/:kind/reject', { body: of<T.RejectBody>(), response: of<T.DriverDocument>() }),
    pricing: route('GET', '/admin/pricing', { response: of<T.PricingHistory>() }),
    savePricing: route('PUT', '/admin/pricing', { body: of<T.SavePricingBody>(), response: of<T.PricingVersion>() }),
    compliance: route('GET', '/admin/compliance', { query: of<T.ComplianceQuery>(), response: of<T.ComplianceReport>() }),
    supply: route('GET', '/admin/supply', { query: of<T.SupplyQuery>(), response: of<T.SupplyHistory>() }),
    behaviour: route('GET', '/admin/behaviour', { query: of<T.BehaviourQuery>(), response: of<T.BehaviourFit>() }),
    whatIf: route('POST', '/admin/what-if', { body: of<T.WhatIfBody>(), response: of<T.WhatIfJob>() }),
    whatIfJob: route('GET', '/admin/what-if/:id', { response: of<T.WhatIfJob>() }),
    complaints: route('GET', '/admin/complaints', { query: of<Partial<T.ComplaintsQuery>>(), response: of<AdminPage<T.Complaint>>() }),
    resolve: route('POST', '/admin/complaints/:complaintId/resolve', { body: of<T.ResolveBody>(), response: of<T.Complaint>() }),
    incidents: route('GET', '/admin/incidents', { query: of<Partial<T.IncidentsQuery>>(), response: of<{ items: T.Incident[] }>() }),
    incident: route('GET', '/admin/incidents/:incidentId', { response: of<T.Incident>() }),
    acknowledgeIncident: route('POST', '/admin/incidents/:incidentId/ack', { response: of<T.Incident>() }),
    noteIncident: route('POST', '/admin/incidents/:incidentId/note', { body: of<T.NoteBody>(), response: of<T.Incident>() }),
    resolveIncident: route('POST', '/admin/incidents/:incidentId/resolve', { response: of<T.Incident>() }),
    audit: route('GET', '/admin/audit', { query: of<Partial<T.AuditQuery>>(), response: of<AdminPage<T.AuditEntry>>() }),
  },
} as const;

/** The realtime channel's address (a WebSocket; docs/realtime.md). */
export const REALTIME_PATH = '/realtime';

/** Every route of the table, flat (for the contract test and tools). */
export const allRoutes = (): Route[] => Object.values(routes).flatMap((group) => Object.values(group) as Route[]);
