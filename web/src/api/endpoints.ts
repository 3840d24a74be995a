import type { BodyOf, QueryOf } from '../../../src/contract/http-client.ts';
import { oneKeyPerIntent } from '../../../src/contract/idempotency.ts';
import { routes } from '../../../src/contract/routes.ts';
import { ApiClient } from './client.ts';
import type { BookBody, DocumentKind, OrderBody } from './types.ts';

// Every endpoint the apps call, as calls of the contract's route table (src/contract/routes.ts):
// no path and no answer type is written here, so none can drift from the server's.

type Id = number;

export function createApi(storageKey: string) {
  const client = new ApiClient(storageKey);
  const { http } = client;
  const byRide = (rideId: Id) => ({ rideId });
  return {
    client,
    auth: {
      requestOtp: (body: BodyOf<typeof routes.auth.requestOtp>) => http.call(routes.auth.requestOtp, { body }),
      signup: (body: BodyOf<typeof routes.auth.signup>) => http.call(routes.auth.signup, { body }),
      login: async (body: BodyOf<typeof routes.auth.login>) => client.signIn(await http.call(routes.auth.login, { body })),
    },
    rides: {
      estimate: (query: NonNullable<QueryOf<typeof routes.rides.estimate>>) => http.call(routes.rides.estimate, { query }),
      /** Sent again after a lost answer, the same booking is answered instead of a second ride. */
      book: oneKeyPerIntent((body: BookBody, idempotencyKey) => http.call(routes.rides.book, { body, idempotencyKey })),
      active: () => http.call(routes.rides.active),
      history: (cursor?: string) => http.page(routes.rides.history, { query: { cursor } }),
      change: (rideId: Id, body: BodyOf<typeof routes.rides.change>) => http.call(routes.rides.change, { params: byRide(rideId), body }),
      /** What cancelling now would cost the caller: the fee `cancel` would charge. */
      cancellationQuote: (rideId: Id) => http.call(routes.rides.cancellationQuote, { params: byRide(rideId) }),
      cancel: (rideId: Id, body: BodyOf<typeof routes.rides.cancel>) => http.call(routes.rides.cancel, { params: byRide(rideId), body }),
      feedback: (rideId: Id, body: BodyOf<typeof routes.rides.feedback>) => http.call(routes.rides.feedback, { params: byRide(rideId), body }),
      /** How the rider pays: any mode while the ride is open; after it, CASH only (paid to the driver at once). */
      paymentMode: (rideId: Id, body: BodyOf<typeof routes.rides.paymentMode>) => http.call(routes.rides.paymentMode, { params: byRide(rideId), body }),
      report: (rideId: Id, body: { lat: number; lon: number }) => http.call(routes.rides.location, { params: byRide(rideId), body }),
      /** A finished ride's signed receipt (completed, or cancelled by its rider with a fee). */
      receipt: (rideId: Id) => http.call(routes.rides.receipt, { params: byRide(rideId) }),
      /** The driver reached stop `index` (from 0) of a PICKED ride. */
      stopArrived: (rideId: Id, index: number) => http.call(routes.rides.stopArrived, { params: { rideId: String(rideId), index: String(index) } }),
      /** What going somewhere else would cost; nothing changes until `confirmDestination`. */
      destinationQuote: (rideId: Id, body: BodyOf<typeof routes.rides.destinationQuote>) => http.call(routes.rides.destinationQuote, { params: byRide(rideId), body }),
      confirmDestination: (rideId: Id, quoteId: string) => http.call(routes.rides.confirmDestination, { params: byRide(rideId), body: { quoteId } }),
    },
    drivers: {
      profile: () => http.call(routes.drivers.profile),
      saveProfile: (body: BodyOf<typeof routes.drivers.saveProfile>) => http.call(routes.drivers.saveProfile, { body }),
      report: (body: { lat: number; lon: number }) => http.call(routes.drivers.report, { body }),
      goOffline: () => http.call(routes.drivers.goOffline),
      documents: () => http.call(routes.drivers.documents),
      uploadDocument: (kind: DocumentKind, body: BodyOf<typeof routes.drivers.uploadDocument>) => http.call(routes.drivers.uploadDocument, { params: { kind }, body }),
      /** Earnings per ride and per day; without dates, this week so far. */
      earnings: (query: QueryOf<typeof routes.drivers.earnings> = {}) => http.call(routes.drivers.earnings, { query }),
      /** The same as the app's page closes (pagehide): the request still goes out, and nothing waits for it. */
      goOfflineAsAppCloses: () => void http.send(routes.drivers.goOffline, { keepalive: true }).catch(() => undefined),
    },
    offers: {
      pending: () => http.call(routes.offers.pending),
      accept: (offerId: Id) => http.call(routes.offers.accept, { params: { offerId } }),
      decline: (offerId: Id, body: BodyOf<typeof routes.offers.decline>) => http.call(routes.offers.decline, { params: { offerId }, body }),
    },
    upcoming: {
      list: () => http.call(routes.upcoming.list),
      accept: (rideId: Id) => http.call(routes.upcoming.accept, { params: byRide(rideId) }),
    },
    safety: {
      /** A new sharing link for family or friends: a page with the driver, the vehicle and where they are. */
      share: (rideId: Id) => http.call(routes.safety.share, { params: byRide(rideId) }),
      stopSharing: (rideId: Id) => http.call(routes.safety.stopSharing, { params: byRide(rideId) }),
      /** What a sharing link shows (public: the share page has no session). */
      shared: (token: string) => http.call(routes.safety.shared, { params: { token } }),
      /** SOS: operators are alerted and the emergency contact is sent the trip's link. */
      sos: (rideId: Id, note?: string) => http.call(routes.safety.sos, { params: byRide(rideId), body: note ? { note } : {} }),
      /** A masked call to the ride's other party: both phones ring, neither number is shown. */
      call: (rideId: Id) => http.call(routes.safety.call, { params: byRide(rideId) }),
      /** The account's own phone number (verified, and one waiting for its code). */
      phone: () => http.call(routes.safety.phone),
      sendPhoneCode: (phone: string) => http.call(routes.safety.sendPhoneCode, { body: { phone } }),
      verifyPhone: (code: string) => http.call(routes.safety.verifyPhone, { body: { code } }),
    },
    push: {
      /** The service's VAPID public key, the applicationServerKey this browser subscribes with. */
      key: () => http.call(routes.push.key),
      subscribe: (subscription: PushSubscriptionJSON) => http.call(routes.push.subscribe, { body: subscription as BodyOf<typeof routes.push.subscribe> }),
    },
    payments: {
      /** Sent again after a lost answer, the same order is answered instead of a second one. */
      order: oneKeyPerIntent((body: OrderBody, idempotencyKey) => http.call(routes.payments.order, { body, idempotencyKey })),
      verify: (body: BodyOf<typeof routes.payments.verify>) => http.call(routes.payments.verify, { body }),
    },
    pricing: {
      /** A pricing version as anyone may read it: the rules a ride priced with it is charged by. */
      version: (version: number) => http.call(routes.pricing.version, { params: { version } }),
    },
    settings: {
      get: () => http.call(routes.settings.get),
      update: (body: BodyOf<typeof routes.settings.update>) => http.call(routes.settings.update, { body }),
    },
    admin: {
      overview: () => http.call(routes.admin.overview),
      liveDrivers: (query: NonNullable<QueryOf<typeof routes.admin.liveDrivers>>) => http.call(routes.admin.liveDrivers, { query }),
      /** The newest open requests (the largest page the API gives). */
      openRequests: () => http.page(routes.rides.requested, { query: { limit: 200 } }),
      zones: () => http.call(routes.admin.zones),
      rides: (query: QueryOf<typeof routes.admin.rides>) => http.call(routes.admin.rides, { query }),
      ride: (rideId: Id) => http.call(routes.admin.ride, { params: byRide(rideId) }),
      cancelRide: (rideId: Id, body: BodyOf<typeof routes.admin.cancelRide>) => http.call(routes.admin.cancelRide, { params: byRide(rideId), body }),
      refund: (rideId: Id, body: BodyOf<typeof routes.admin.refund>) => http.call(routes.admin.refund, { params: byRide(rideId), body }),
      users: (query: QueryOf<typeof routes.admin.users>) => http.call(routes.admin.users, { query }),
      createUser: (body: BodyOf<typeof routes.admin.createUser>) => http.call(routes.admin.createUser, { body }),
      block: (userId: Id, body: BodyOf<typeof routes.admin.block>) => http.call(routes.admin.block, { params: { userId }, body }),
      unblock: (userId: Id) => http.call(routes.admin.unblock, { params: { userId } }),
      erase: (userId: Id) => http.call(routes.admin.erase, { params: { userId } }),
      deletionRequests: (cursor?: string) => http.call(routes.admin.deletionRequests, { query: { cursor } }),
      drivers: (query: QueryOf<typeof routes.admin.drivers>) => http.call(routes.admin.drivers, { query }),
      approve: (driverId: Id) => http.call(routes.admin.approve, { params: { driverId } }),
      reject: (driverId: Id, body: BodyOf<typeof routes.admin.reject>) => http.call(routes.admin.reject, { params: { driverId }, body }),
      driverDocuments: (driverId: Id) => http.call(routes.admin.driverDocuments, { params: { driverId } }),
      /** The uploaded file itself, to look at before deciding. */
      documentFile: (driverId: Id, kind: DocumentKind) => http.file(routes.admin.documentFile, { params: { driverId, kind } }),
      approveDocument: (driverId: Id, kind: DocumentKind) => http.call(routes.admin.approveDocument, { params: { driverId, kind } }),
      rejectDocument: (driverId: Id, kind: DocumentKind, reason: string) => http.call(routes.admin.rejectDocument, { params: { driverId, kind }, body: { reason } }),
      incidents: (status?: 'open' | 'acknowledged' | 'resolved') => http.call(routes.admin.incidents, { query: status ? { status } : {} }),
      acknowledgeIncident: (incidentId: Id) => http.call(routes.admin.acknowledgeIncident, { params: { incidentId } }),
      noteIncident: (incidentId: Id, text: string) => http.call(routes.admin.noteIncident, { params: { incidentId }, body: { text } }),
      resolveIncident: (incidentId: Id) => http.call(routes.admin.resolveIncident, { params: { incidentId } }),
      pricing: () => http.call(routes.admin.pricing),
      /** A new version; `whatIfId` cites the finished what-if replay it rests on (kept in its audit entry). */
      savePricing: (body: BodyOf<typeof routes.admin.savePricing>) => http.call(routes.admin.savePricing, { body }),
      /** Replays a period as it ran and with a candidate, in the background; `whatIfJob` follows it. */
      whatIf: (body: BodyOf<typeof routes.admin.whatIf>) => http.call(routes.admin.whatIf, { body }),
      whatIfJob: (id: string) => http.call(routes.admin.whatIfJob, { params: { id } }),
      compliance: (query: QueryOf<typeof routes.admin.compliance>) => http.call(routes.admin.compliance, { query }),
      complaints: (query: QueryOf<typeof routes.admin.complaints>) => http.call(routes.admin.complaints, { query }),
      resolve: (complaintId: Id, body: BodyOf<typeof routes.admin.resolve>) => http.call(routes.admin.resolve, { params: { complaintId }, body }),
      audit: (query: QueryOf<typeof routes.admin.audit>) => http.call(routes.admin.audit, { query }),
    },
    notifications: {
      history: (cursor?: string) => http.call(routes.notifications.history, { query: { cursor } }),
      markRead: (notificationId: Id) => http.call(routes.notifications.markRead, { params: { notificationId } }),
      markAllRead: () => http.call(routes.notifications.markAllRead),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
