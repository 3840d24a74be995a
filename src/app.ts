import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppOptions } from './app-options.ts';
import { sql } from 'kysely';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import type { ClientMessages, DomainEvents, UserMessages } from './events.ts';
import { accountOperationsRoutes, createAccountOperations } from './modules/admin/accounts.module.ts';
import { createOperatorServices, operatorRoutes } from './modules/admin/admin.module.ts';
import { liveDriversRoutes } from './modules/admin/live-drivers.routes.ts';
import { LiveDriverMap } from './modules/admin/live-drivers.service.ts';
import { auditRoutes } from './modules/admin/audit.routes.ts';
import { AuditTrail } from './modules/admin/audit.ts';
import { serviceMetrics } from './modules/admin/service-metrics.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService, authSettings } from './modules/auth/auth.service.ts';
import { Operators } from './modules/auth/operators.ts';
import { TokenRevocationSync } from './modules/auth/token-revocations.ts';
import { complaintsRoutes } from './modules/complaints/complaints.routes.ts';
import { createComplaints } from './modules/complaints/complaints.module.ts';
import { createDispatch } from './modules/dispatch/dispatch.module.ts';
import { AvailableDrivers } from './modules/dispatch/available-drivers.ts';
import { offersRoutes } from './modules/dispatch/offers.routes.ts';
import { upcomingRoutes } from './modules/dispatch/upcoming.routes.ts';
import { PickupWaits } from './modules/dispatch/pickup-waits.ts';
import { PickupWays } from './modules/dispatch/pickup-ways.ts';
import { driversRoutes } from './modules/drivers/drivers.routes.ts';
import { documentsRoutes } from './modules/drivers/documents.routes.ts';
import { createDrivers } from './modules/drivers/drivers.module.ts';
import { insightsRoutes, zonesRoutes } from './modules/insights/insights.routes.ts';
import { createInsights } from './modules/insights/insights.module.ts';
import { ZoneTable } from './modules/insights/zone-table.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { FareQuotes } from './modules/pricing/fare-quotes.ts';
import { Pricing } from './modules/pricing/pricing.service.ts';
import { pricingRoutes } from './modules/pricing/pricing.routes.ts';
import { createPayments } from './modules/payments/payments.module.ts';
import { RideStats } from './modules/rides/ride-stats.service.ts';
import { createRideServices } from './modules/rides/rides.module.ts';
import { ridesRoutes } from './modules/rides/rides.routes.ts';
import { earningsRoutes } from './modules/rides/earnings.routes.ts';
import { createReplay } from './modules/replay/replay.module.ts';
import { replayRoutes } from './modules/replay/replay.routes.ts';
import { createSafety } from './modules/safety/safety.module.ts';
import { safetyRoutes } from './modules/safety/safety.routes.ts';
import { incidentRoutes } from './modules/safety/incidents.routes.ts';
import { phoneRoutes } from './modules/safety/phones.routes.ts';
import { createPush } from './modules/push/push.module.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { createSettings } from './modules/settings/settings.module.ts';
import { authentication } from './platform/auth/authenticate.ts';
import { startupSummary } from './platform/banner.ts';
import { TokenService } from './platform/auth/tokens.ts';
import { systemClock } from './platform/clock.ts';
import { healthRoutes } from './platform/health.ts';
import { BODY_LIMIT_BYTES, FRAMEWORK_ERROR_OPTIONS, registerHttpConventions, requestId, trustedProxies } from './platform/http.ts';
import { crossOrigin } from './platform/cors.ts';
import { DomainEventDispatcher } from './platform/domain-events.ts';
import { IdempotencyKeys, idempotencyKeys } from './platform/idempotency.ts';
import { createMailer } from './platform/mail.ts';
import { Metrics, metricsEndpoint } from './platform/metrics.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { ReceiptSigner, receiptKeysRoutes } from './platform/receipt-signing.ts';
import { RazorpayClient } from './platform/payment-provider.ts';
import { rateLimit } from './platform/rate-limit.ts';
import { createSmsSender } from './platform/sms.ts';
import { Texts } from './platform/i18n/texts.ts';
import { WebPushTransport } from './platform/push/push-transport.ts';
import { exotelTelephony } from './platform/telephony.ts';
import { ClientMessageRegistry } from './platform/realtime/client-messages.ts';
import { SseStreams } from './platform/realtime/sse.ts';
import { realtimeRoutes } from './platform/realtime/websocket.ts';
import { createRouter } from './platform/routing/create-router.ts';
import { LearnedDetours } from './platform/routing/learned-detours.ts';
import { serviceLogger, withRequestSerializer } from './platform/request-log.ts';
import { sharedState } from './shared-state.ts';
import { StartupFailure } from './platform/startup-failure.ts';
import { terminalLog } from './platform/terminal-log.ts';
import { webApps } from './platform/web-apps.ts';


export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    // JSON lines for machines; a person at a terminal gets readable lines (terminal-log.ts).
    logger: withRequestSerializer(options.logger ?? serviceLogger(config.logLevel, process.stdout.isTTY ? terminalLog(process.stdout) : undefined)),
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    ...FRAMEWORK_ERROR_OPTIONS,
    trustProxy: trustedProxies(config.trustProxy),
    return503OnClosing: false, // requests still arriving while it closes (after the drain) are served, with Connection: close
  });
  registerHttpConventions(app);

  // Platform: routing (a road graph that cannot load stops the start before anything opens), storage, tokens, mail, and the state instances share.
  const metrics = new Metrics((error, family) => app.log.warn({ err: error, family }, 'metric not collected'));
  // The straight lines' detour factor per zone, as insights learns it from completed trips.
  const detours = new LearnedDetours();
  const router = createRouter(config.routing, { metrics, log: app.log, detour: detours.factor });
  const database = connectDatabase(config.database, (error) => app.log.warn({ err: error }, 'database connection lost'));
  await database.migrate().catch(async (error: unknown) => {
    await database.destroy().catch(() => {});
    throw new StartupFailure('DATABASE_URL', config.database.kind === 'sqlite' ? `sqlite:${config.database.file}` : config.database.url, error);
  });
  const { db, transactions } = database;
  const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds, clock);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, app.log);
  const shared = await sharedState(config, clock, app.log, options.driverIndex);
  const { counters, driverIndex, availableIndexes, cache, lease, bus, hub, checks } = shared;
  const streams = new SseStreams(hub, options.realtime);
  // How the modules react to each other: each subscribes in its own *.module.ts (docs/domain-events.md).
  const events = new DomainEventDispatcher<DomainEvents>(app.log);
  // What clients send over the realtime channel: each module registers its own message types in its *.module.ts.
  const clientMessages = new ClientMessageRegistry<ClientMessages>();
  tokens.onRevoked((userId) => streams.endFor(userId));

  // Services, each built on the ones before it: nothing reaches up, so there is no cycle.
  // The service's own texts (notifications, push messages, e-mails) in each reader's language.
  const texts = new Texts(config.serviceTimezone);
  const settings = await createSettings({ db, transactions, clock, events, bus });
  const notifications = new NotificationsService({ db, transactions, clock, hub, log: app.log, texts, languages: settings, events });
  // The answers kept for a user's retries hold what they typed: an erasure drops them (platform/idempotency.ts owns the table).
  const idempotency = new IdempotencyKeys({ db, transactions, clock });
  events.inUnit('account.erasing', (tx, { userId }) => idempotency.eraseOf(tx, userId));
  const auth = new AuthService({ db, transactions, texts, events }, tokens, mailer, clock, authSettings(config));
  tokens.requireAccounts(auth);
  // Every instance refuses the tokens an account change ended, wherever it was made.
  const revocations = new TokenRevocationSync({ db, bus, revoked: tokens.revocations, clock, log: app.log });
  await revocations.start();
  await auth.demoteUnlistedAdmins();
  const pricing = new Pricing({ db, bus, clock, log: app.log }); // before drivers: documents check vehicle age under its compliance profile
  await pricing.start();
  const { drivers, profiles, documents, stop: stopDocumentSweeps } = createDrivers({
    drivers: { db, transactions, index: driverIndex, clock, log: app.log, events, positionsPerSecond: config.driverPositionsPerSecond, reconnectGraceMs: options.driverReconnectGraceMs },
    profiles: { db, transactions, users: auth, clock, events, approvalRequired: config.driverApprovalRequired, documentsRequired: config.driverDocumentsRequired },
    documents: { db, transactions, clock, events, notifications, vehicleRules: pricing, sweepMs: options.documentSweepMs },
    messages: clientMessages,
  });
  const stats = new RideStats(db);
  const zones = new ZoneTable({ cache, clock, log: app.log });
  zones.start();
  const { insights, demand, travelTimes } = createInsights({ db, transactions, counters, clock, log: app.log, events, rides: stats, drivers, zones, router, detours, timeZone: config.serviceTimezone });
  await travelTimes.start();
  // Drivers' ways to pickups (the estimate's wait, offers, a round's costs): the router, in learned minutes.
  const pickupWays = new PickupWays({ router, learned: { times: travelTimes, clock } });
  const audit = new AuditTrail({ db, clock });
  const signer = new ReceiptSigner(config.receiptSigningKey);
  const rides = await createRideServices({
    db,
    transactions,
    bus,
    hub,
    clock,
    counters,
    log: app.log,
    events,
    users: auth,
    drivers,
    profiles,
    notifications,
    settings,
    pricing,
    quotes: new FareQuotes(insights, pricing, router, new PickupWaits(new AvailableDrivers(availableIndexes, clock), pickupWays), { clock, timeZone: config.serviceTimezone }, travelTimes),
    signer,
    audit,
    maxOpenRidesPerRider: config.maxOpenRidesPerRider,
    maxRideKm: config.maxRideKm,
    router,
    travelTimes,
    fareRecomputeTolerance: config.fareRecomputeTolerance,
    timeZone: config.serviceTimezone,
    schedule: config.schedule,
    scheduleIntervalMs: config.dispatch.batchMs,
  });
  const { keyId, keySecret, apiUrl, webhookSecret } = config.razorpay;
  const provider = keyId && keySecret ? new RazorpayClient({ keyId, keySecret, apiUrl }) : undefined;
  const dispatch = await createDispatch({
    db,
    transactions,
    bus,
    hub,
    clock,
    log: app.log,
    events,
    indexes: availableIndexes,
    lease,
    drivers,
    profiles,
    rides,
    zones,
    ways: pickupWays,
    settings: config.dispatch,
  });
  // After dispatch listens, so drivers shown again are also available again, and rides booked ahead
  // that come due are offered at once.
  await drivers.restore();
  rides.schedule.start();
  const { payments, refunds, sender: refundSender } = createPayments({ db, transactions, clock, log: app.log, provider, webhookSecret, rides: rides.payments, events, notifications });
  const accountOperations = createAccountOperations({ transactions, audit, auth, settings, payments, refunds });
  const complaints = createComplaints({ db, transactions, rides: rides.queries, notifications, clock, events });
  const operators = new Operators(db);
  const safety = await createSafety({
    db, transactions, rides: rides.queries, clock, events, hub, users: auth, operators, settings, texts, mailer, audit, metrics, log: app.log,
    counters, sms: createSmsSender(config.smsUrl, app.log), secret: config.jwtSecret, resendCooldownSeconds: config.otpResendCooldownSeconds, telephony: config.telephony && exotelTelephony(config.telephony.url, config.telephony.callerId),
  });
  // Offers, ride changes and SOS alerts to apps that are closed (docs/push.md).
  const push = createPush({ db, transactions, clock, push: config.push, events, hub, operators, texts, languages: settings, transport: new WebPushTransport(config.push.vapid), log: app.log, metrics });
  const replay = createReplay({
    db, transactions, clock, drivers, rides: rides.dispatch, retentionDays: config.replayRetentionDays, log: app.log, behaviour: { offers: dispatch.offers, rides: stats }, simulationSpeed: config.simulationSpeed,
    whatIf: { profiles, pricing, dispatch: config.dispatch, routing: config.routing, timeZone: config.serviceTimezone, simulationSpeed: config.simulationSpeed },
  });
  const operator = createOperatorServices({ transactions, clock, timeZone: config.serviceTimezone, simulationSpeed: config.simulationSpeed, audit, auth, rides, stats, drivers, profiles, documents, dispatch, pricing, payments, notifications, complaints, incidents: safety.incidents, whatIf: replay.whatIf });
  replay.supply.start(options.supplySampleIntervalMs);
  const liveDrivers = new LiveDriverMap({ drivers, profiles, rides: rides.dispatch, users: auth, clock });
  const readiness = { database: () => sql`select 1`.execute(db), ...checks };
  serviceMetrics(metrics, { overview: operator.overview, dispatcher: dispatch.dispatcher, hub, checks: readiness, pools: () => database.pools(), copies: shared.copies });

  // Once listening: what a newcomer needs to know, and what is still to set up (banner.ts).
  app.addHook('onListen', async () => {
    const summary = startupSummary(config, app.server.address() as AddressInfo, packageJson.version, { hasOperator: await auth.hasOperator() });
    app.log.info({ startup: summary }, `ride-hailing API ${summary.version} ready at ${summary.urls.api}`);
  });
  // Live streams end first, so clients reconnect elsewhere; after requests in flight have
  // finished, buffered writes are flushed and connections closed.
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => {
    await rides.schedule.stop();
    await replay.supply.stop();
    await dispatch.dispatcher.stop();
    await refundSender.stop();
    await push.deliveries.close();
    safety.track.stop();
    stopDocumentSweeps();
    revocations.stop();
    zones.stop();
    travelTimes.stop();
    pricing.stop();
    await drivers.close();
    await demand.close();
    await shared.close();
    mailer.close();
    await database.destroy();
  });

  // HTTP: request timing (so every route is timed), documentation (its routes stay public), limits and authentication, then modules.
  await app.register(metricsEndpoint, { metrics, token: config.metricsToken });
  await registerOpenApi(app);
  await app.register(crossOrigin, { origins: config.corsOrigins });
  await app.register(rateLimit, { counters, perMinute: config.rateLimitPerMinute, authPerMinute: config.authRateLimitPerMinute });
  await app.register(authentication, { tokens });
  await app.register(idempotencyKeys, { keys: idempotency });
  await app.register(healthRoutes, { checks: readiness, drain: options.drain });
  await app.register(receiptKeysRoutes, { signer });
  await app.register(authRoutes, { prefix: '/auth', service: auth });
  await app.register(settingsRoutes, { prefix: '/user-settings', service: settings });
  await app.register(notificationsRoutes, { prefix: '/notifications', service: notifications, streams });
  await app.register(ridesRoutes, { prefix: '/rides', ...rides });
  await app.register(complaintsRoutes, { prefix: '/rides', service: complaints });
  await app.register(safetyRoutes, safety);
  await app.register(incidentRoutes, safety);
  await app.register(phoneRoutes, safety);
  await app.register(pushRoutes, { prefix: '/push', ...push });
  await app.register(driversRoutes, { prefix: '/drivers', service: drivers, profiles });
  await app.register(documentsRoutes, { prefix: '/drivers/me', documents });
  await app.register(earningsRoutes, { prefix: '/drivers/me', earnings: rides.earnings });
  await app.register(offersRoutes, { prefix: '/drivers/me/offers', service: dispatch.offers });
  await app.register(upcomingRoutes, { prefix: '/drivers/me/upcoming', service: dispatch.upcoming });
  await app.register(zonesRoutes, { prefix: '/admin', service: insights });
  await app.register(auditRoutes, { prefix: '/admin', audit });
  await app.register(accountOperationsRoutes, { prefix: '/admin', ...accountOperations });
  await app.register(operatorRoutes, { prefix: '/admin', ...operator });
  await app.register(liveDriversRoutes, { prefix: '/admin', map: liveDrivers });
  await app.register(replayRoutes, { prefix: '/admin', ...replay });
  await app.register(paymentsRoutes, { prefix: '/payments', service: payments });
  await app.register(pricingRoutes, { prefix: '/pricing', pricing });
  await app.register(insightsRoutes, { prefix: '/rides/insights', service: insights });
  await app.register(realtimeRoutes<UserMessages>, {
    hub,
    authenticate: (token) => tokens.verify(token, 'access'),
    messages: clientMessages,
    positionsPerSecond: config.driverPositionsPerSecond,
    // A driver's app that went away goes offline unless it reports again soon (RECONNECT_GRACE_MS).
    onLost: (user) => user.role === 'DRIVER' && drivers.connectionLost(user.id),
    onRevoked: (listener) => tokens.onRevoked(listener),
    clock,
    limits: options.realtime,
  });
  // The browser apps over the same API; WEB_APPS=false leaves an API-only service.
  if (config.webApps.enabled) await app.register(webApps, config.webApps);
  return app;
}
