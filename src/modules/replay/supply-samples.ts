import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';

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
  return pack([...drivers].sort(byId), (driver) => driver.busy);
}

/**
 * The same packing straight from the online drivers' positions, sorting `online` itself (the caller's
 * own list): with a million drivers online, a SampledDriver each and a sorted copy held some 100 MB
 * more at once, and the process kept the memory after.
 */
export function packOnline(online: DriverPosition[], busy: ReadonlySet<number>): string {
  return pack(online.sort(byId), (driver) => busy.has(driver.driverId));
}

const byId = (a: { driverId: number }, b: { driverId: number }) => a.driverId - b.driverId;

function pack<T extends Omit<SampledDriver, 'busy'>>(sorted: readonly T[], isBusy: (driver: T) => boolean): string {
  const words = new Int32Array(sorted.length * FIELDS);
  let previous = 0;
  for (let i = 0; i < sorted.length; i++) {
    const driver = sorted[i];
    // Up to 2 × MAX_ID + 1: stored modulo 2^32 and read back unsigned.
    words[i * FIELDS] = (driver.driverId - previous) * 2 + (isBusy(driver) ? 1 : 0);
    words[i * FIELDS + 1] = Math.round(driver.lat * SCALE);
    words[i * FIELDS + 2] = Math.round(driver.lon * SCALE);
    previous = driver.driverId;
  }
  return deflateRawSync(Buffer.from(words.buffer)).toString('base64');
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
