// The client side of the realtime benchmark, in a process of its own on the load core. Started by
// bench/scenarios/realtime.ts with a spec file:
// - idle: opens one authenticated WebSocket per token, prints {"ready", "failed"} and holds them
//   until it is stopped (the service's memory is measured meanwhile);
// - fanout: riders and their drivers connected (riders to `riderUrl`, drivers to `driverUrl`), each
//   driver reports positions over its socket at a steady rate, and every rider notes when each of
//   its ride's positions arrived; prints the latencies and how many never arrived.
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { percentile, round } from './stats.ts';

export interface IdleSpec {
  kind: 'idle';
  url: string;
  tokens: string[];
}

export interface FanoutSpec {
  kind: 'fanout';
  riderUrl: string;
  driverUrl: string;
  rides: Array<{ id: number; riderId: number; riderToken: string; driverToken: string; pickup: { lat: number; lon: number } }>;
  /** Positions per second per driver. */
  rate: number;
  warmupSeconds: number;
  /** Measured windows of `seconds` each, back to back; the figures are the median window's. */
  windows: number;
  seconds: number;
  /** The bare relay (bench/lib/ws-relay.ts) needs to be told where a position goes. */
  relay?: boolean;
}

export interface FanoutResult {
  sent: number;
  received: number;
  /** Reports the server took but never delivered. */
  lost: number;
  /** Reports the server refused (the driver got an `error`). */
  refused: number;
  p50: number;
  p99: number;
  /** Each window's p99. */
  windowP99s: number[];
  max: number;
  reportsPerSecond: number;
  errors: string[];
}

/** Sockets opened at once: enough to be quick, few enough not to look like a SYN flood. */
const OPENING = 200;
/** How long a position may take before it counts as lost. */
const DRAIN_MS = 3_000;
/** Each driver's first report, spread over this time before the measured beat starts. */
const PRIMING_MS = 2_000;

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as IdleSpec | FanoutSpec;
const errors: string[] = [];
const noteError = (message: string) => errors.length < 5 && errors.push(message);

if (spec.kind === 'idle') {
  let failed = 0;
  const sockets = await openAll(spec.tokens.map((token) => ({ url: spec.url, token })), () => failed++);
  console.log(JSON.stringify({ ready: sockets.filter(Boolean).length, failed, errors }));
  process.once('SIGTERM', () => process.exit(0));
} else {
  console.log(JSON.stringify(await fanout(spec)));
  process.exit(0);
}

/** Opens and authenticates every connection, OPENING at a time; a failed one is undefined. */
async function openAll(targets: Array<{ url: string; token: string }>, onFailure: () => void, onMessage?: (i: number, data: Buffer) => void): Promise<Array<WebSocket | undefined>> {
  const sockets: Array<WebSocket | undefined> = [];
  for (let start = 0; start < targets.length; start += OPENING) {
    const batch = targets.slice(start, start + OPENING).map((target, k) => connect(target.url, target.token, onMessage && ((data) => onMessage(start + k, data))));
    for (const socket of await Promise.all(batch)) {
      if (!socket) onFailure();
      sockets.push(socket);
    }
  }
  return sockets;
}

function connect(url: string, token: string, onMessage?: (data: Buffer) => void): Promise<WebSocket | undefined> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.on('error', (error) => {
      noteError(error.message);
      resolve(undefined);
    });
    socket.on('close', (code) => code !== 1000 && code !== 1005 && noteError(`closed with ${code}`));
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
    socket.once('message', (data: Buffer) => {
      if ((JSON.parse(data.toString('utf8')) as { type: string }).type !== 'ready') return resolve(undefined);
      if (onMessage) socket.on('message', onMessage);
      resolve(socket);
    });
  });
}

async function fanout(spec: FanoutSpec): Promise<FanoutResult> {
  // Per ride, when each position was sent, by its latitude: every report carries a latitude of its own.
  const sentAt = spec.rides.map(() => new Map<number, number>());
  const windows: number[][] = Array.from({ length: spec.windows }, () => []);
  let measuring = false;
  let started = 0;
  let received = 0;
  let refused = 0;
  let failed = 0;
  const riders = await openAll(
    spec.rides.map((ride) => ({ url: spec.riderUrl, token: ride.riderToken })),
    () => failed++,
    (i, data) => {
      const arrived = performance.now();
      const message = JSON.parse(data.toString('utf8')) as { type: string; data: { lat: number } };
      if (message.type !== 'ride.position') return;
      const sent = sentAt[i].get(message.data.lat);
      if (sent === undefined) return;
      sentAt[i].delete(message.data.lat);
      if (sent >= 0) {
        received++;
        windows[Math.min(spec.windows - 1, Math.floor((sent - started) / (spec.seconds * 1000)))].push(arrived - sent);
      }
    },
  );
  // A driver hears back only when a position was not taken.
  const drivers = await openAll(
    spec.rides.map((ride) => ({ url: spec.driverUrl, token: ride.driverToken })),
    () => failed++,
    (_, data) => {
      const reply = JSON.parse(data.toString('utf8')) as { type: string; code?: string; message?: string };
      if (reply.type !== 'error') return;
      refused++;
      noteError(`${reply.code}: ${reply.message}`);
    },
  );
  if (failed > 0) throw new Error(`${failed} connections failed: ${errors.join(' | ')}`);

  let sent = 0;
  const counters = spec.rides.map(() => 0);
  const report = (i: number) => {
    const ride = spec.rides[i];
    // About a kilometre from pickup and never nearer, so no arrival notice: every report is a plain update.
    const lat = ride.pickup.lat + 0.009 + ++counters[i] * 1e-7;
    // Warm-up reports are marked -1: they must arrive, but their latency is not counted.
    sentAt[i].set(lat, measuring ? performance.now() : -1);
    if (measuring) sent++;
    drivers[i]!.send(JSON.stringify(spec.relay ? { type: 'position', to: ride.riderId, rideId: ride.id, lat, lon: ride.pickup.lon } : { type: 'position', lat, lon: ride.pickup.lon }));
  };
  // Drivers come online one after another, as they would, rather than all in the same millisecond.
  spec.rides.forEach((_, i) => setTimeout(() => report(i), (i / spec.rides.length) * PRIMING_MS));
  await new Promise((resolve) => setTimeout(resolve, 2 * PRIMING_MS));
  // Then each driver on its own steady beat, the beats spread evenly over the interval.
  const intervalMs = 1000 / spec.rate;
  const timers = spec.rides.map((_, i) => setTimeout(() => timers.push(setInterval(() => report(i), intervalMs)), (i / spec.rides.length) * intervalMs));
  await new Promise((resolve) => setTimeout(resolve, spec.warmupSeconds * 1000));
  measuring = true;
  started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, spec.windows * spec.seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  for (const timer of timers) clearInterval(timer);
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  // Whatever is still waiting never arrived (warm-up reports included), or was refused.
  const lost = sentAt.reduce((sum, pending) => sum + pending.size, 0) - refused;
  for (const socket of [...riders, ...drivers]) socket?.close();
  // The shared machine's noise comes in bursts: the median window says what the service does.
  const measured = windows.map((latencies) => ({ p50: round(percentile(latencies, 50), 1), p99: round(percentile(latencies, 99), 1), max: Math.max(...latencies) }));
  const median = [...measured].sort((a, b) => a.p99 - b.p99)[Math.floor(measured.length / 2)];
  return {
    sent,
    received,
    lost,
    refused,
    p50: median.p50,
    p99: median.p99,
    windowP99s: measured.map((window) => window.p99),
    max: round(Math.max(...measured.map((window) => window.max)), 1),
    reportsPerSecond: Math.round(sent / elapsed),
    errors,
  };
}
