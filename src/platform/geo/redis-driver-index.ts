import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { viaRedis } from '../redis.ts';
import { columnsOf, nearestFirst, POSITION_TTL_MS, type DriverLocationIndex, type DriverPosition, type NearbyDriver, type PositionColumns } from './driver-index.ts';
import { EARTH_RADIUS_KM, haversineKm, type Point } from './geo.ts';

// {name}:geo   GEO set for the radius search (Redis keeps positions to about half a metre)
// {name}:polar sorted set driverId → latitude, for the drivers GEO cannot hold (beyond ±85.05°)
// {name}:pos   hash driverId → "lat,lon,updatedAt", the exact report and its time
// {name}:seen  sorted set driverId → updatedAt, so stale drivers can be dropped oldest first
// Every change of every index is also published, numbered, for the copies each instance reads from
// (driver-index-copy.ts): CHANGES_SEQ counts them, CHANGES is the channel.
export const CHANGES = 'drivers:changes';
export const CHANGES_SEQ = 'drivers:changes:seq';
const keysOf = (name: string) => [`${name}:geo`, `${name}:pos`, `${name}:seen`, `${name}:polar`, CHANGES_SEQ] as const;
/** The hash of an index's exact reports (what a copy loads). */
export const reportsKey = (name: string) => `${name}:pos`;
const GEO_MAX_LAT = 85.05112878; // Redis GEO cannot index the polar caps
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;
const SWEEP_INTERVAL_MS = 10_000;
/** The first ring of a nearby search: a city's nearest drivers are usually within it. */
const FIRST_RING_KM = 1;

const UPSERT = `
local seen = redis.call('ZSCORE', KEYS[3], ARGV[1])
if seen and tonumber(seen) > tonumber(ARGV[4]) then return 0 end
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
else
  redis.call('GEOADD', KEYS[1], ARGV[3], ARGV[2], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local seq = redis.call('INCR', KEYS[5])
redis.call('PUBLISH', ARGV[7], seq .. '|' .. ARGV[9] .. '|' .. ARGV[8] .. '|' .. ARGV[1] .. '|' .. ARGV[5])
return 1`;

// A change with an empty report is a removal.
const REMOVE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local seq = redis.call('INCR', KEYS[5])
redis.call('PUBLISH', ARGV[2], seq .. '|' .. ARGV[4] .. '|' .. ARGV[3] .. '|' .. ARGV[1] .. '|')
return 1`;

// The nearest fresh candidates within the radius. GEOSEARCH costs as much as the drivers inside
// the area it covers, so the search starts with a small ring and widens it only while the ring
// holds too few fresh drivers: anything outside a ring is farther than everything inside it.
// Within a ring Redis sorts and cuts to COUNT; when stale drivers crowd the answer, COUNT grows.
// The loop ends: each turn either answers, or multiplies COUNT (until it exceeds the drivers in
// the ring) or the ring (until it is the radius) by four. Wanted 0 means every fresh driver within
// the radius, unsorted. Drivers in the polar caps are added from the latitude band ARGV[7]..ARGV[8].
const NEARBY = `
local freshAfter = tonumber(ARGV[4])
local found = {}
local function keep(ids)
  for _, id in ipairs(ids) do
    local report = redis.call('HGET', KEYS[2], id)
    if report and tonumber(string.match(report, ',([^,]+)$')) > freshAfter then
      found[#found + 1] = id
      found[#found + 1] = report
    end
  end
end
if ARGV[7] ~= '' then keep(redis.call('ZRANGEBYSCORE', KEYS[4], ARGV[7], ARGV[8])) end
local radius = tonumber(ARGV[3])
if radius <= 0 then return found end
local wanted = tonumber(ARGV[5])
if wanted == 0 then
  keep(redis.call('GEOSEARCH', KEYS[1], 'FROMLONLAT', ARGV[2], ARGV[1], 'BYRADIUS', tostring(radius), 'km'))
  return found
end
local polar = #found
local ring = math.min(radius, tonumber(ARGV[6]))
local count = wanted
while true do
  for i = #found, polar + 1, -1 do found[i] = nil end
  local ids = redis.call('GEOSEARCH', KEYS[1], 'FROMLONLAT', ARGV[2], ARGV[1], 'BYRADIUS', tostring(ring), 'km', 'ASC', 'COUNT', count)
  keep(ids)
  if (#found - polar) / 2 >= wanted then return found end
  if #ids == count then
    count = count * 4
  elseif ring < radius then
    ring = math.min(radius, ring * 4)
  else
    return found
  end
end`;

const SWEEP = `
local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, id in ipairs(stale) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
end
return #stale`;

export type Script = (...args: Array<string | number>) => Promise<unknown>;

/** A Lua script as a command of `redis`, called with its keys already given. */
export function defineScript(redis: Redis, name: string, lua: string, keys: readonly string[]): Script {
  redis.defineCommand(name, { numberOfKeys: keys.length, lua });
  const command = (redis as unknown as Record<string, Script>)[name].bind(redis);
  return (...args) => command(...keys, ...args);
}

const clampLat = (lat: number) => Math.max(-GEO_MAX_LAT, Math.min(GEO_MAX_LAT, lat));
const isPolar = (lat: number) => lat > GEO_MAX_LAT || lat < -GEO_MAX_LAT;

function parseReport(driverId: number, report: string): DriverPosition {
  const [lat, lon, updatedAt] = report.split(',').map(Number);
  return { driverId, lat, lon, updatedAt };
}

/** The driver location index in Redis, shared by every instance; `name` keeps several indexes apart. */
export class RedisDriverIndex implements DriverLocationIndex {
  readonly #redis: Redis;
  readonly #name: string;
  readonly #channel: string;
  readonly #keys: ReturnType<typeof keysOf>;
  readonly #upsert: Script;
  readonly #remove: Script;
  readonly #nearby: Script;
  readonly #sweep: Script;
  readonly #sweeper: NodeJS.Timeout;

  constructor(redis: Redis, clock: Clock, name = 'drivers') {
    this.#redis = redis;
    this.#name = name;
    // Channels are not keys: the client's key prefix is added here (as the event bus does).
    this.#channel = (redis.options.keyPrefix ?? '') + CHANGES;
    this.#keys = keysOf(name);
    this.#upsert = defineScript(redis, 'driverIndexUpsert', UPSERT, this.#keys);
    this.#remove = defineScript(redis, 'driverIndexRemove', REMOVE, this.#keys);
    this.#nearby = defineScript(redis, 'driverIndexNearby', NEARBY, this.#keys);
    this.#sweep = defineScript(redis, 'driverIndexSweep', SWEEP, this.#keys);
    this.#sweeper = setInterval(() => void this.sweep(clock.now()).catch(() => undefined), SWEEP_INTERVAL_MS).unref();
  }

  async upsert({ driverId, lat, lon, updatedAt }: DriverPosition): Promise<void> {
    // The wall-clock time of sending (not the service clock) tells copies how far behind they are.
    await viaRedis(this.#upsert(driverId, lat, lon, updatedAt, `${lat},${lon},${updatedAt}`, isPolar(lat) ? 1 : 0, this.#channel, this.#name, Date.now()));
  }

  async remove(driverId: number): Promise<void> {
    await viaRedis(this.#remove(driverId, this.#channel, this.#name, Date.now()));
  }

  async get(driverId: number, now: number): Promise<DriverPosition | undefined> {
    const report = await viaRedis(this.#redis.hget(this.#keys[1], String(driverId)));
    if (!report) return undefined;
    const position = parseReport(driverId, report);
    return position.updatedAt > now - POSITION_TTL_MS ? position : undefined;
  }

  async nearby(center: Point, radiusKm: number, limit: number, now: number): Promise<NearbyDriver[]> {
    // Redis measures with its own earth radius (and positions to about half a metre): ask a little
    // wider and for a few more than needed, and decide distances and order exactly here.
    const candidates = limit + Math.max(5, Math.ceil(limit / 4));
    const reachDegrees = radiusKm / KM_PER_DEGREE;
    const south = center.lat - reachDegrees;
    const north = center.lat + reachDegrees;
    const band = isPolar(south) || isPolar(north) ? [Math.max(-90, south), Math.min(90, north)] : ['', ''];
    // A centre in a polar cap searches GEO from the nearest point GEO can hold, as much wider as that
    // point is away, for every driver there (their order from a moved centre would not be ours).
    const geoCenter = clampLat(center.lat);
    const movedKm = Math.abs(center.lat - geoCenter) * KM_PER_DEGREE;
    const geoReachable = south <= GEO_MAX_LAT && north >= -GEO_MAX_LAT;
    const geoRadius = geoReachable ? (radiusKm + movedKm) * 1.01 + 0.01 : 0;
    const reply = (await viaRedis(
      this.#nearby(geoCenter, center.lon, geoRadius, now - POSITION_TTL_MS, movedKm > 0 ? 0 : candidates, FIRST_RING_KM, ...band),
    )) as string[];
    const found: NearbyDriver[] = [];
    for (let i = 0; i < reply.length; i += 2) {
      const { driverId, lat, lon } = parseReport(Number(reply[i]), reply[i + 1]);
      const distanceKm = haversineKm(center, { lat, lon });
      if (distanceKm <= radiusKm) found.push({ driverId, lat, lon, distanceKm });
    }
    return nearestFirst(found, limit);
  }

  async fresh(now: number): Promise<DriverPosition[]> {
    const reports = await viaRedis(this.#redis.hgetall(this.#keys[1]));
    const freshAfter = now - POSITION_TTL_MS;
    return Object.entries(reports)
      .map(([driverId, report]) => parseReport(Number(driverId), report))
      .filter((position) => position.updatedAt > freshAfter);
  }

  async freshColumns(now: number): Promise<PositionColumns> {
    return columnsOf(await this.fresh(now));
  }

  /** Drops stale drivers, a thousand per round trip. */
  async sweep(now: number): Promise<void> {
    while (Number(await viaRedis(this.#sweep(now - POSITION_TTL_MS))) === 1000);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
  }
}
