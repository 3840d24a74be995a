import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { columnsOf, type PositionColumns } from '../../platform/geo/driver-index.ts';

/** How often driver supply is sampled for replays (decisions.md "What-if replay": about every 30 s). */
export const SUPPLY_SAMPLE_MS = 30_000;

/** A slot of the clock: 30 s of the city's time, so a simulated city (SIMULATION_SPEED) is sampled as often as a real one lives. */
export const sampleSlotMs = (speed = 1) => Math.max(1, Math.round(SUPPLY_SAMPLE_MS / speed));

/** A driver in a sample: where they were and whether a ride held them. */
export interface SampledDriver {
  driverId: number;
  lat: number;
  lon: number;
  busy: boolean;
}

// Positions to 1e-5 degree (about a metre): ample for dispatch, and whole numbers pack and compress well.
const SCALE = 1e5;
const FIELDS = 3;

/**
 * Packs a sample: drivers by id, each as three int32 (id as the gap from the one before, lat and lon
 * in 1e-5 degrees, the busy flag in the lowest bit of the id gap), raw deflate, base64 (a text column on
 * both databases). About 8 characters a driver against some 60 as JSON: a week of 2,000 drivers online
 * around the clock is about 320 MB.
 */
export function packSample(drivers: readonly SampledDriver[]): string {
  const busy = new Set(drivers.filter((driver) => driver.busy).map((driver) => driver.driverId));
  return deflateRawSync(wordsOf(columnsOf(drivers), busy)).toString('base64');
}

/**
 * The same packing straight from the online drivers' positions as the index's columns, as the service
 * samples them every 30 s: no object per driver, and the deflate in libuv's thread pool. With a million
 * drivers online a sample held the service's thread for about a second (a million objects read, a
 * comparator sort of them, then the deflate) and left hundreds of megabytes of heap behind.
 */
export async function packOnline(online: PositionColumns, busy: ReadonlySet<number>): Promise<string> {
  return (await deflateRawAsync(wordsOf(online, busy))).toString('base64');
}

const deflateRawAsync = promisify(deflateRaw);

/** A driver's place in the columns fits below this in the sort key (2^22: four million drivers). */
const PLACES = 2 ** 22;

function wordsOf(drivers: PositionColumns, busy: ReadonlySet<number>): Buffer {
  const { driverIds, lats, lons } = drivers;
  const words = new Int32Array(driverIds.length * FIELDS);
  let previous = 0;
  const order = byId(driverIds);
  for (let i = 0; i < order.length; i++) {
    const at = order[i];
    const driverId = driverIds[at];
    // Up to 2 × MAX_ID + 1: stored modulo 2^32 and read back unsigned.
    words[i * FIELDS] = (driverId - previous) * 2 + (busy.has(driverId) ? 1 : 0);
    words[i * FIELDS + 1] = Math.round(lats[at] * SCALE);
    words[i * FIELDS + 2] = Math.round(lons[at] * SCALE);
    previous = driverId;
  }
  return Buffer.from(words.buffer);
}

/**
 * The drivers' places in the columns, by id. Each id and its place make one float64 key (id × 2^22 +
 * place stays below 2^53 for ids up to MAX_ID, so exact), and a Float64Array sorts natively: a
 * tenth of the time a comparator takes over a million objects.
 */
function byId(driverIds: Float64Array): ArrayLike<number> {
  if (driverIds.length > PLACES) return Array.from(driverIds.keys()).sort((a, b) => driverIds[a] - driverIds[b]);
  const keys = new Float64Array(driverIds.length);
  for (let i = 0; i < driverIds.length; i++) keys[i] = driverIds[i] * PLACES + i;
  keys.sort();
  const order = new Uint32Array(driverIds.length);
  for (let i = 0; i < keys.length; i++) order[i] = keys[i] % PLACES;
  return order;
}

export function unpackSample(packed: string): SampledDriver[] {
  const bytes = inflateRawSync(Buffer.from(packed, 'base64'));
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const drivers: SampledDriver[] = [];
  let driverId = 0;
  for (let i = 0; i < words.length; i += FIELDS) {
    const gapAndFlag = words[i] >>> 0;
    driverId += Math.floor(gapAndFlag / 2);
    drivers.push({ driverId, lat: words[i + 1] / SCALE, lon: words[i + 2] / SCALE, busy: gapAndFlag % 2 === 1 });
  }
  return drivers;
}

/** The driver ids of a packed sample. */
export const driverIdsOf = (packed: string): number[] => unpackSample(packed).map((driver) => driver.driverId);
