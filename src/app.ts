import { createHmac } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { driversRoutes } from './modules/drivers/drivers.routes.ts';
import { DriversService } from './modules/drivers/drivers.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { insightsRoutes } from './modules/insights/insights.routes.ts';
import { InsightsService } from './modules/insights/insights.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import type { DemandSource } from './modules/rides/pricing.ts';
import { ridesRoutes } from './modules/rides/rides.routes.ts';
import { RidesService } from './modules/rides/rides.service.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { authentication } from './platform/auth/authenticate.ts';
import { TokenService } from './platform/auth/tokens.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { MemoryCounters, RedisCounters, type Counters } from './platform/counters.ts';
import { MemoryEventBus, RedisEventBus, type EventBus } from './platform/event-bus.ts';
import { MemoryDriverIndex, type DriverLocationIndex } from './platform/geo/driver-index.ts';
import { RedisDriverIndex } from './platform/geo/redis-driver-index.ts';
import { healthRoutes, type ReadinessCheck } from './platform/health.ts';
import { BODY_LIMIT_BYTES, registerHttpConventions, requestId } from './platform/http.ts';
import { createMailer } from './platform/mail.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { RazorpayClient } from './platform/payment-provider.ts';
import { createRedis, untilReady } from './platform/redis.ts';
import { MemoryCache, RedisCache, type SharedCache } from './platform/shared-cache.ts';
import { rateLimit } from './platform/rate-limit.ts';

export interface AppOptions {
  /** Time source; tests pass one they can move. */
  clock?: Clock;
  /** Overrides the pino logger built from config (tests capture or silence it). */
  logger?: FastifyServerOptions['logger'];
  /** A driver location index filled beforehand (the benchmark's bulk loader); chosen from config otherwise. */
  driverIndex?: DriverLocationIndex;
}

// Secrets that could reach a log line are masked: the authorization header of a logged request, and
// these keys of any object the code logs (no request body is ever logged). Explicit paths, because
// wildcard paths made every request's logger measurably slower.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'password',
  'otp',
  'token',
  'accessToken',
  'refreshToken',
  'signature',
  'startOtp',
  'endOtp',
];

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } },
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  });
  registerHttpConventions(app);

  // Platform: storage, tokens, mail, counters, the driver location index.
  const { db, kind, transactions } = connectDatabase(config.database, (error) => app.log.warn({ err: error }, 'database connection lost'));
  await migrateToLatest(db, kind);
  const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds, clock);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, app.log);
  const shared = await sharedState(config, clock, app.log, options.driverIndex);
  const { counters, driverIndex, cache, bus, checks } = shared;

  // Services: each module's rules; later ones use earlier ones.
  const notifications = new NotificationsService(db, clock, bus, app.log);
  await notifications.listen();
  const auth = new AuthService(db, tokens, mailer, clock, {
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    otpResendCooldownSeconds: config.otpResendCooldownSeconds,
    adminEmails: config.adminEmails,
    otpKey: createHmac('sha256', config.jwtSecret).update('signup-otp').digest('hex'),
  });
  const settings = new SettingsService(db, clock);
  const drivers = new DriversService(db, driverIndex, clock, app.log);
  // Fares follow the live surge of the insights model, which in turn reads ride statistics.
  const demand: DemandSource = () => insights.demandSignal();
  const rides = new RidesService({ db, transactions, bus, clock, log: app.log, counters, demand, users: auth, drivers, notifications, settings });
  await rides.listen();
  const insights = new InsightsService({ rides, drivers, cache, clock, timeZone: config.serviceTimezone, log: app.log });
  const { keyId, keySecret, apiUrl, webhookSecret } = config.razorpay;
  const provider = keyId && keySecret ? new RazorpayClient({ keyId, keySecret, apiUrl }) : undefined;
  const payments = new PaymentsService({ db, transactions, clock, log: app.log, provider, webhookSecret, rides, notifications });

  // After requests in flight have finished: write what is buffered, then close connections.
  app.addHook('onClose', async () => {
    await rides.close();
    await drivers.close();
    await shared.close();
    mailer.close();
    await db.destroy();
  });

  // HTTP: documentation first (its routes stay public), then limits and authentication, then modules.
  await registerOpenApi(app);
  await app.register(rateLimit, { counters, perMinute: config.rateLimitPerMinute, authPerMinute: config.authRateLimitPerMinute });
  await app.register(authentication, { tokens });
  await app.register(healthRoutes, { checks: { database: () => sql`select 1`.execute(db), ...checks } });
  await app.register(authRoutes, { prefix: '/auth', service: auth });
  await app.register(settingsRoutes, { prefix: '/user-settings', service: settings });
  await app.register(notificationsRoutes, { prefix: '/notifications', service: notifications });
  await app.register(ridesRoutes, { prefix: '/rides', rides, drivers });
  await app.register(driversRoutes, { prefix: '/drivers', service: drivers });
  await app.register(paymentsRoutes, { prefix: '/payments', service: payments });
  await app.register(insightsRoutes, { prefix: '/rides/insights', service: insights });
  return app;
}

interface SharedState {
  counters: Counters;
  driverIndex: DriverLocationIndex;
  cache: SharedCache;
  bus: EventBus;
  checks: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

/** State that several instances must share: in this process by default, in Redis when REDIS_URL is set. */
async function sharedState(config: Config, clock: Clock, log: FastifyBaseLogger, filledIndex: DriverLocationIndex | undefined): Promise<SharedState> {
  if (!config.redisUrl) {
    const [counters, driverIndex, bus] = [new MemoryCounters(clock), filledIndex ?? new MemoryDriverIndex(() => clock.now()), new MemoryEventBus()];
    return {
      counters,
      driverIndex,
      cache: new MemoryCache(clock),
      bus,
      checks: {},
      close: async () => {
        await Promise.all([counters.close(), driverIndex.close(), bus.close()]);
      },
    };
  }
  const redis = createRedis(config.redisUrl, config.redisKeyPrefix, log);
  const subscriber = createRedis(config.redisUrl, config.redisKeyPrefix, log, { subscriber: true });
  await untilReady(redis);
  const [counters, driverIndex] = [new RedisCounters(redis, clock), filledIndex ?? new RedisDriverIndex(redis, clock)];
  const bus = new RedisEventBus(redis, subscriber, config.redisKeyPrefix, log);
  return {
    counters,
    driverIndex,
    cache: new RedisCache(redis, clock),
    bus,
    checks: { redis: () => redis.ping() },
    close: async () => {
      await Promise.all([counters.close(), driverIndex.close(), bus.close()]);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
