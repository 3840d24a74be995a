// Mixed load for the soak: rider/driver pairs go through book → accept → positions → pickup →
// positions → complete, over and over, with public reads in between. Every non-2xx is an error.
import { readFileSync } from 'node:fs';
import type { Fixtures } from './lib/fixtures.ts';

const [url, fixturesFile, secondsArg, pairsArg] = process.argv.slice(2);
const fixtures = JSON.parse(readFileSync(fixturesFile, 'utf8')) as Fixtures;
const deadline = Date.now() + Number(secondsArg) * 1000;
const pairs = Number(pairsArg);

let requests = 0;
let cycles = 0;
const errors: string[] = [];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method: string, path: string, token?: string, body?: unknown): Promise<any> {
  requests++;
  try {
    const response = await fetch(url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      errors.push(`${method} ${path} → ${response.status} ${text.slice(0, 200)}`);
      return undefined;
    }
    return text ? JSON.parse(text) : undefined;
  } catch (error) {
    errors.push(`${method} ${path} → ${(error as Error).message}`);
    return undefined;
  }
}

async function pair(index: number) {
  const rider = fixtures.riders[index];
  const driver = fixtures.drivers[index];
  const base = { lat: 12.9 + (index % 10) * 0.01, lon: 77.5 + Math.floor(index / 10) * 0.01 };
  while (Date.now() < deadline) {
    const ride = await call('POST', '/rides/book', rider.token, {
      pickupLat: base.lat, pickupLon: base.lon, dropLat: base.lat + 0.04, dropLon: base.lon + 0.03, paymentMode: 'CASH',
    });
    if (!ride) continue;
    const at = (step: number) => ({ lat: base.lat - 0.01 + step * 0.0012, lon: base.lon - 0.01 + step * 0.0012 });
    if (!(await call('POST', `/rides/status/${ride.id}`, driver.token, { status: 'ACCEPTED', driverId: String(driver.id) }))) continue;
    for (let step = 0; step < 8; step++) {
      await call('POST', `/rides/location/${ride.id}`, driver.token, at(step));
      if (step % 4 === 0) await call('GET', `/rides/status/${ride.id}`);
      await pause(100);
    }
    await call('POST', `/rides/status/${ride.id}`, driver.token, { status: 'PICKED', otp: ride.startOtp });
    for (let step = 8; step < 16; step++) {
      await call('POST', `/rides/location/${ride.id}`, driver.token, at(step));
      await pause(100);
    }
    await call('GET', `/rides/drivers/nearby?lat=${base.lat}&lon=${base.lon}`);
    await call('POST', `/rides/status/${ride.id}`, driver.token, { status: 'COMPLETED', otp: ride.endOtp });
    if (cycles % 10 === 0) await call('GET', '/notifications/history?limit=20', rider.token);
    cycles++;
  }
}

await Promise.all(Array.from({ length: pairs }, (_, i) => pair(i)));
console.log(JSON.stringify({ cycles, requests, errors: errors.length, errorSamples: errors.slice(0, 5) }));
