// Time from a booking to the offer at the driver's phone, end to end: riders book through the API
// of a running service and drivers listen on the realtime channel (one WebSocket each, as the
// driver app does). Each rider–driver pair has a neighbourhood of its own, so every booking has
// one obvious best driver; a pair books at a random moment (the round timer's phase is uniform),
// waits for `offer.created` on the driver's socket, then cancels, which frees the driver again.
import type { Account } from '../lib/fixtures.ts';
import { random } from '../lib/drivers.ts';
import { offset, CENTRE } from './dispatch-city.ts';

export interface LatencyResult {
  samples: number[];
  errors: number;
  errorSamples: string[];
}

const OFFER_TIMEOUT_MS = 15_000;

interface Listener {
  type: string;
  rideId: number;
  resolve: (at: number) => void;
}

/** A driver's realtime connection: waits for offer messages about a ride. */
class DriverSocket {
  readonly #socket: WebSocket;
  readonly #listeners = new Set<Listener>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const arrived = performance.now();
      const message = JSON.parse(String(event.data)) as { type: string; data?: { rideId?: number } };
      for (const listener of this.#listeners) {
        if (listener.type === message.type && listener.rideId === message.data?.rideId) {
          this.#listeners.delete(listener);
          listener.resolve(arrived);
        }
      }
    });
  }

  static async open(baseUrl: string, token: string): Promise<DriverSocket> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/realtime`);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('error', () => reject(new Error('realtime connection failed')), { once: true });
      socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'auth', token })), { once: true });
      socket.addEventListener('message', (event) => (JSON.parse(String(event.data)) as { type: string }).type === 'ready' && resolve(), { once: true });
    });
    return new DriverSocket(socket);
  }

  /** Resolves with the arrival time (performance.now()) of the next `type` message about the ride. */
  next(type: 'offer.created' | 'offer.withdrawn', rideId: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const listener: Listener = { type, rideId, resolve: (at) => (clearTimeout(timer), resolve(at)) };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`no ${type} for ride ${rideId} within ${OFFER_TIMEOUT_MS} ms`));
      }, OFFER_TIMEOUT_MS);
      this.#listeners.add(listener);
    });
  }

  close(): void {
    this.#socket.close();
  }
}

async function api(baseUrl: string, method: string, path: string, token: string, body?: unknown): Promise<{ id?: number }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as { id?: number };
}

/** Pair i's neighbourhood: a grid of spots 6 km apart, so no other driver is within the 2 km first search. */
const spotOf = (i: number) => offset(offset(CENTRE, 0, 6 * Math.floor(i / 8) - 20), 90, 6 * (i % 8) - 20);

export async function measureOfferLatency(baseUrl: string, riders: Account[], drivers: Account[], seconds: number, batchMs: number): Promise<LatencyResult> {
  const result: LatencyResult = { samples: [], errors: 0, errorSamples: [] };
  const sockets = await Promise.all(
    drivers.map(async (driver, i) => {
      await api(baseUrl, 'PUT', '/drivers/me/profile', driver.token, { vehicleType: 'mini', vehicleNumber: `KA01BN${String(i).padStart(4, '0')}` });
      return DriverSocket.open(baseUrl, driver.token);
    }),
  );
  const until = performance.now() + seconds * 1000;
  const pair = async (i: number) => {
    const next = random(1_000 + i);
    const spot = spotOf(i);
    const driverAt = offset(spot, 0, 0.3);
    while (performance.now() < until) {
      try {
        // Positions go stale after two minutes; a driver app reports every few seconds anyway.
        await api(baseUrl, 'PUT', '/drivers/me/location', drivers[i].token, driverAt);
        await new Promise((resolve) => setTimeout(resolve, next() * batchMs));
        const booked = performance.now();
        const ride = await api(baseUrl, 'POST', '/rides/book', riders[i].token, { pickupLat: spot.lat, pickupLon: spot.lon, dropLat: spot.lat + 0.03, dropLon: spot.lon, paymentMode: 'CASH' });
        const offered = await sockets[i].next('offer.created', ride.id!);
        result.samples.push(offered - booked);
        const withdrawn = sockets[i].next('offer.withdrawn', ride.id!);
        await api(baseUrl, 'POST', `/rides/cancel/${ride.id}`, riders[i].token);
        await withdrawn;
      } catch (error) {
        result.errors += 1;
        if (result.errorSamples.length < 3) result.errorSamples.push((error as Error).message);
      }
    }
  };
  try {
    await Promise.all(drivers.map((_, i) => pair(i)));
  } finally {
    for (const socket of sockets) socket.close();
  }
  return result;
}
