import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { ServiceBus, ServiceEvents, UserHub, UserMessages } from './events.ts';
import { dispatchLeaseMs } from './modules/dispatch/dispatcher.ts';
import { byVehicle, VEHICLE_TYPES, type VehicleType } from './modules/drivers/vehicles.ts';
import type { Clock } from './platform/clock.ts';
import { FallbackCounters, MemoryCounters, RedisCounters, type Counters } from './platform/counters.ts';
import { MemoryEventBus, RedisEventBus } from './platform/event-bus.ts';
import type { DriverLocationIndex } from './platform/geo/driver-index.ts';
import { DriverIndexCopies, type CopyStats } from './platform/geo/driver-index-copy.ts';
import { MemoryDriverIndex } from './platform/geo/memory-driver-index.ts';
import type { ReadinessCheck } from './platform/health.ts';
import { LocalLease, RedisLease, type Lease } from './platform/lease.ts';
import { MemoryHub } from './platform/realtime/hub.ts';
import { RedisHub } from './platform/realtime/redis-hub.ts';
import { createRedis, untilReady } from './platform/redis.ts';
import { MemoryCache, RedisCache, type SharedCache } from './platform/shared-cache.ts';
import { StartupFailure } from './platform/startup-failure.ts';

export interface SharedState {
  counters: Counters;
  driverIndex: DriverLocationIndex;
  /** Available drivers, one index per vehicle type (dispatch). */
  availableIndexes: Record<VehicleType, DriverLocationIndex>;
  cache: SharedCache;
  /** Which instance leads dispatch. */
  lease: Lease;
  bus: ServiceBus;
  hub: UserHub;
  checks: Record<string, ReadinessCheck>;
  /** How far behind Redis this instance's copy of the driver indexes runs (production mode). */
  copies?: { readonly stats: CopyStats; takeMaxLag(): number };
  close(): Promise<void>;
}

/** State that several instances must share: in this process by default, in Redis when REDIS_URL is set. */
export async function sharedState(config: Config, clock: Clock, log: FastifyBaseLogger, filledIndex: DriverLocationIndex | undefined): Promise<SharedState> {
  if (!config.redisUrl) {
    const counters = new MemoryCounters(clock);
    const driverIndex = filledIndex ?? new MemoryDriverIndex(() => clock.now());
    const bus = new MemoryEventBus<ServiceEvents>();
    const hub = new MemoryHub<UserMessages>(clock);
    const availableIndexes = byVehicle(() => new MemoryDriverIndex(() => clock.now()));
    return {
      counters,
      driverIndex,
      availableIndexes,
      cache: new MemoryCache(clock),
      lease: new LocalLease(),
      bus,
      hub,
      checks: {},
      close: async () => {
        await Promise.all([counters.close(), driverIndex.close(), bus.close(), hub.close(), ...Object.values(availableIndexes).map((index) => index.close())]);
      },
    };
  }
  const redis = createRedis(config.redisUrl, config.redisKeyPrefix, log);
  const subscriber = createRedis(config.redisUrl, config.redisKeyPrefix, log, { subscriber: true });
  const notReady = await untilReady(redis);
  if (notReady) {
    redis.disconnect();
    subscriber.disconnect();
    throw new StartupFailure('REDIS_URL', config.redisUrl, notReady);
  }
  let warnedAt = 0;
  // While Redis is away, counters go on per instance (ride codes must still be checkable).
  const counters = new FallbackCounters(new RedisCounters(redis, clock), new MemoryCounters(clock), (error) => {
    if (clock.now() - warnedAt < 10_000) return;
    warnedAt = clock.now();
    log.warn({ err: error }, 'shared counters unavailable; counting on this instance');
  });
  // Reads of driver positions come from this instance's copy, kept in step with Redis through a
  // subscription of its own, so the stream of changes never queues behind realtime messages.
  const copySubscriber = createRedis(config.redisUrl, config.redisKeyPrefix, log, { subscriber: true, name: `${config.redisKeyPrefix.replace(/[^\w:.-]/g, '_')}driver-positions-copy` });
  const availableName = (vehicle: VehicleType) => `drivers:available:${vehicle}`;
  const copies = new DriverIndexCopies(redis, copySubscriber, ['drivers', ...VEHICLE_TYPES.map(availableName)], clock, log);
  await copies.start();
  const driverIndex = filledIndex ?? copies.index('drivers');
  const availableIndexes = byVehicle((vehicle) => copies.index(availableName(vehicle)));
  const bus = new RedisEventBus<ServiceEvents>(redis, subscriber, config.redisKeyPrefix, log);
  const hub = new RedisHub<UserMessages>(redis, subscriber, config.redisKeyPrefix, clock, log);
  return {
    counters,
    driverIndex,
    availableIndexes,
    cache: new RedisCache(redis, clock),
    // A dead leader's lease runs out (within five seconds by default); the next round elsewhere takes over.
    lease: new RedisLease(redis, 'dispatch', dispatchLeaseMs(config.dispatch.batchMs)),
    bus,
    hub,
    // Ready once Redis answers and this instance's copy of the driver positions is in step with it.
    checks: { redis: async () => (await redis.ping(), copies.inStep()) },
    copies,
    close: async () => {
      await Promise.all([counters.close(), driverIndex.close(), bus.close(), hub.close(), copies.close(), ...Object.values(availableIndexes).map((index) => index.close())]);
      redis.disconnect();
      subscriber.disconnect();
      copySubscriber.disconnect();
    },
  };
}
