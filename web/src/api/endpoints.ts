import { ApiClient } from './client.ts';
import type {
  AdminPage,
  AdminUser,
  AuditEntry,
  AuditQuery,
  BookBody,
  CreateUserBody,
  CancelBody,
  DeclineBody,
  DriverLocation,
  DriverProfile,
  EstimateQuery,
  FareEstimate,
  FeedbackBody,
  LocationResponse,
  LoginBody,
  MessageResponse,
  NotificationPage,
  Offer,
  OrderBody,
  OrderResponse,
  ProfileBody,
  RequestOtpBody,
  RequestOtpResponse,
  Ride,
  Settings,
  SettingsUpdate,
  SignupBody,
  StatusBody,
  TokenResponse,
  VerifyBody,
  VerifyResponse,
  ZonesResponse,
} from './types.ts';

/** Every endpoint the apps call, typed by the server's schemas. */
export function createApi(storageKey: string) {
  const client = new ApiClient(storageKey);
  return {
    client,
    auth: {
      requestOtp: (body: RequestOtpBody) => client.post<RequestOtpResponse>('/auth/signup/request-otp', body, false),
      signup: (body: SignupBody) => client.post<MessageResponse>('/auth/signup', body, false),
      login: async (body: LoginBody) => client.signIn(await client.post<TokenResponse>('/auth/login', body, false)),
    },
    rides: {
      estimate: (query: EstimateQuery) => client.get<FareEstimate>('/rides/estimate', query, false),
      book: (body: BookBody) => client.post<Ride>('/rides/book', body),
      active: () => client.get<Ride[]>('/rides/active'),
      history: (cursor?: string) => client.page<Ride>('/rides/history', { cursor }),
      change: (rideId: number, body: StatusBody) => client.post<Ride>(`/rides/status/${rideId}`, body),
      cancel: (rideId: number, body: CancelBody) => client.post<Ride>(`/rides/cancel/${rideId}`, body),
      feedback: (rideId: number, body: FeedbackBody) => client.post<Ride>(`/rides/feedback/${rideId}`, body),
      report: (rideId: number, position: { lat: number; lon: number }) => client.post<LocationResponse>(`/rides/location/${rideId}`, position),
    },
    drivers: {
      profile: () => client.get<DriverProfile>('/drivers/me/profile'),
      saveProfile: (body: ProfileBody) => client.put<DriverProfile>('/drivers/me/profile', body),
      report: (position: { lat: number; lon: number }) => client.put<DriverLocation>('/drivers/me/location', position),
      goOffline: () => client.delete<MessageResponse>('/drivers/me/location'),
    },
    offers: {
      pending: () => client.get<Offer[]>('/drivers/me/offers'),
      accept: (offerId: number) => client.post<Ride>(`/drivers/me/offers/${offerId}/accept`),
      decline: (offerId: number, body: DeclineBody) => client.post<Offer>(`/drivers/me/offers/${offerId}/decline`, body),
    },
    payments: {
      order: (body: OrderBody) => client.post<OrderResponse>('/payments/order', body),
      verify: (body: VerifyBody) => client.post<VerifyResponse>('/payments/verify', body, false),
    },
    settings: {
      get: () => client.get<Settings>('/user-settings'),
      update: (body: SettingsUpdate) => client.put<Settings>('/user-settings', body),
    },
    admin: {
      zones: () => client.get<ZonesResponse>('/admin/zones'),
      createUser: (body: CreateUserBody) => client.post<AdminUser>('/admin/users', body),
      audit: (query: Partial<AuditQuery>) => client.get<AdminPage<AuditEntry>>('/admin/audit', query),
    },
    notifications: {
      history: (cursor?: string) => client.get<NotificationPage>('/notifications/history', { cursor }),
      markRead: (id: number) => client.post<MessageResponse>(`/notifications/mark-read/${id}`),
      markAllRead: () => client.post<MessageResponse>('/notifications/mark-all-read'),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
