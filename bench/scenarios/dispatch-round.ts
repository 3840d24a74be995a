// One batched round's decision, timed on one core: reading every available driver once (from the
// in-process indexes, or from Redis when REDIS_URL is set, as the service builds them), each open
// ride's candidate search in that snapshot, their ways to the pickup by the service's default router,
// and the assignment, through the dispatcher's own
// pairRides. Not included: the round's database reads (open rides, pending offers, refusals) and
// the offers it writes. Prints one JSON line.
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { AvailableDrivers } from '../../src/modules/dispatch/available-drivers.ts';
import { batched, CANDIDATES_PER_RIDE, pairRides, searchRadiusKm } from '../../src/modules/dispatch/dispatcher.ts';
import { PickupWays } from '../../src/modules/dispatch/pickup-ways.ts';
import { byVehicle } from '../../src/modules/drivers/vehicles.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { RedisDriverIndex } from '../../src/platform/geo/redis-driver-index.ts';
import { createRedis, untilReady } from '../../src/platform/redis.ts';
import { StraightRouter } from '../../src/platform/routing/straight-router.ts';
import { median, percentile, round } from '../lib/stats.ts';
import { cityDrivers, cityRide, memoryIndexes, random } from './dispatch-city.ts';

const arg = (name: string, fallback: number) => Number(new RegExp(`--${name}=(\\d+)`).exec(process.argv.join(' '))?.[1] ?? fallback);
const driverCount = arg('drivers', 20_000);
const rideCount = arg('rides', 2_000);
const rounds = arg('rounds', 20);
const OFFER_TTL_MS = 15_000;

const config = loadConfig();
const redis = config.redisUrl ? createRedis(config.redisUrl, config.redisKeyPrefix, pino({ level: 'warn' })) : undefined;
if (redis) await untilReady(redis);
const indexes = redis ? byVehicle((vehicle) => new RedisDriverIndex(redis, systemClock, `drivers:available:${vehicle}`)) : memoryIndexes(() => Date.now());
const pool = new AvailableDrivers(indexes, systemClock);
// The service's default router (ROUTING=straight), without learned travel times (their correction is one map read per ride).
const ways = new PickupWays({ router: new StraightRouter() });

const now = Date.now();
const drivers = cityDrivers(driverCount, random(11), now);
for (let i = 0; i < drivers.length; i += 2_000) await Promise.all(drivers.slice(i, i + 2_000).map((driver) => pool.move(driver.vehicle, driver.position)));
// Rides that have waited up to 45 s: their searches reach 2, 5 or 8 km.
const next = random(12);
const rides = Array.from({ length: rideCount }, (_, i) => cityRide(i + 1, next, now - Math.floor(next() * 45_000)));
const radius = (ride: (typeof rides)[number]) => searchRadiusKm(now - ride.searchingSince, OFFER_TTL_MS);

const elapsed = (since: number) => performance.now() - since;
const roundMs: number[] = [];
const readMs: number[] = [];
const searchMs: number[] = [];
const routeMs: number[] = [];
const assignMs: number[] = [];
let matched = 0;
let candidates = 0;
for (let i = 0; i < rounds + 3; i++) {
  const started = performance.now();
  const pairs = await pairRides(await pool.snapshot(), rides, 'batched', radius, ways);
  const total = elapsed(started);
  // The same round in its three parts, for the breakdown.
  let mark = performance.now();
  const snapshot = await pool.snapshot();
  const read = elapsed(mark);
  mark = performance.now();
  const lists = rides.map((ride) => snapshot.candidates(ride.pickup, ride.rideType, radius(ride), CANDIDATES_PER_RIDE));
  const search = elapsed(mark);
  mark = performance.now();
  const measured = await ways.of(
    rides.map((ride) => ride.pickup),
    lists,
  );
  const route = elapsed(mark);
  mark = performance.now();
  batched(measured);
  const assign = elapsed(mark);
  if (i < 3) continue; // warm-up
  roundMs.push(total);
  readMs.push(read);
  searchMs.push(search);
  routeMs.push(route);
  assignMs.push(assign);
  matched = pairs.length;
  candidates = lists.reduce((sum, list) => sum + list.length, 0) / lists.length;
}
await Promise.all(Object.values(indexes).map((index) => index.close()));
redis?.disconnect();

console.log(
  JSON.stringify({
    drivers: driverCount,
    rides: rideCount,
    rounds,
    index: redis ? 'redis' : 'memory',
    p50: round(median(roundMs), 1),
    p99: round(percentile(roundMs, 99), 1),
    readP50: round(median(readMs), 1),
    searchP50: round(median(searchMs), 1),
    routeP50: round(median(routeMs), 1),
    assignP50: round(median(assignMs), 1),
    matched,
    candidatesPerRide: round(candidates, 1),
  }),
);
