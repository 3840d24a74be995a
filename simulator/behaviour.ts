import type { ChargeBody } from './api-types.ts';
import { offsetKm, rounded, type Point } from './geo.ts';
import { Random } from './random.ts';

// How the simulated people behave: each choice keyed by who makes it and what it is about (see
// random.ts), so a choice never depends on the order in which the service's answers arrived.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export const RIDER_BEHAVIOUR = {
  /** Share of riders who cancel before any driver accepted (they changed their mind). */
  changeMind: 0.04,
  changeMindAfterMs: [20 * SECOND, 3 * MINUTE],
  /** How long a rider waits for a driver before giving up (counted as unmatched). */
  patienceMs: [6 * MINUTE, 15 * MINUTE],
  /** Share of riders who cancel after a driver accepted (the driver takes too long, plans change). */
  cancelAfterAccept: 0.05,
  cancelAfterAcceptMs: [30 * SECOND, 4 * MINUTE],
  /** Share of riders not at the pickup when their driver arrives, and how long the driver then waits (waiting is charged beyond the free minutes). */
  late: 0.3,
  lateByMs: [1 * MINUTE, 8 * MINUTE],
  /** Share who pay online (UPI or card) rather than cash. */
  online: 0.55,
  /** Share who rate their driver, and the stars they give. */
  rates: 0.8,
  stars: { 5: 0.62, 4: 0.25, 3: 0.08, 2: 0.03, 1: 0.02 },
  /** Share of bookings with stops on the way (one or two), and how long the car waits at each (charged beyond the free minutes). */
  stops: 0.1,
  stopWaitMs: [1 * MINUTE, 6 * MINUTE],
  /** Share of bookings made ahead (for later), and how far ahead of the pickup time. */
  ahead: 0.06,
  aheadByMs: [45 * MINUTE, 3 * 60 * MINUTE],
} as const;

export const DRIVER_BEHAVIOUR = {
  /** What a driver does with an offer: most accept, some decline, some let it expire. */
  answers: { accept: 0.82, decline: 0.1, ignore: 0.08 },
  /** How long a driver looks at an offer before answering. */
  answerAfterMs: [2 * SECOND, 8 * SECOND],
  /** Share of trips whose rider the driver rates. */
  rates: 0.7,
  stars: { 5: 0.75, 4: 0.2, 3: 0.05 },
  /** An idle driver waits this long where the last trip ended (or where they went online), then drives towards demand. */
  idleBeforeMovingMs: [3 * MINUTE, 12 * MINUTE],
  /** Share of trips that cross a toll plaza, and what it costs: the driver adds it while PICKED. */
  toll: 0.15,
  tollInr: [25, 120],
  /** Share of drops where the driver pays for parking, and what it costs. */
  parking: 0.08,
  parkingInr: [10, 40],
} as const;

export interface RiderPlan {
  /** Cancels this long after booking if no driver accepted yet, or never (null). */
  changesMindAfterMs: number | null;
  /** Gives up this long after booking when still unmatched. */
  patienceMs: number;
  /** Cancels this long after a driver accepted, or never. */
  cancelsAfterAcceptMs: number | null;
  paysOnline: boolean;
  /** Stars for the driver after the trip, or null: no rating. */
  rating: number | null;
  /** Booked for this long after the booking is made, or null: for now. Patience then counts from that time. */
  aheadMs: number | null;
}

export type OfferAnswer = 'accept' | 'decline' | 'ignore';

const between = (random: Random, [min, max]: readonly [number, number]) => Math.round(random.between(min, max));
const stars = (random: Random, table: Readonly<Record<number, number>>) => Number(random.share(table));

/** Everything the rider of booking `index` will do, decided before the run. */
export function riderPlan(seed: number, index: number): RiderPlan {
  const random = Random.of(seed, 'rider-plan', index);
  const b = RIDER_BEHAVIOUR;
  return {
    changesMindAfterMs: random.chance(b.changeMind) ? between(random, b.changeMindAfterMs) : null,
    patienceMs: between(random, b.patienceMs),
    cancelsAfterAcceptMs: random.chance(b.cancelAfterAccept) ? between(random, b.cancelAfterAcceptMs) : null,
    paysOnline: random.chance(b.online),
    rating: random.chance(b.rates) ? stars(random, b.stars) : null,
    // Its own draws, so the plans of runs before booking ahead existed stay as they were.
    aheadMs: bookedAhead(seed, index),
  };
}

function bookedAhead(seed: number, index: number): number | null {
  const random = Random.of(seed, 'booked-ahead', index);
  return random.chance(RIDER_BEHAVIOUR.ahead) ? between(random, RIDER_BEHAVIOUR.aheadByMs) : null;
}

/** What driver `driver` does with an offer of booking `booking`, and after how long. */
export function offerAnswer(seed: number, driver: number, booking: number): { answer: OfferAnswer; afterMs: number } {
  const random = Random.of(seed, 'offer', driver, booking);
  return { answer: random.share(DRIVER_BEHAVIOUR.answers), afterMs: between(random, DRIVER_BEHAVIOUR.answerAfterMs) };
}

/** How long the driver of booking `booking` waits at the pickup for a late rider (0: the rider is there). */
export function pickupWait(seed: number, booking: number): number {
  const random = Random.of(seed, 'pickup-wait', booking);
  return random.chance(RIDER_BEHAVIOUR.late) ? between(random, RIDER_BEHAVIOUR.lateByMs) : 0;
}

/** The tolls and parking the driver of booking `booking` pays on the trip (the service passes them through, up to its cap). */
export function tripCharges(seed: number, booking: number): ChargeBody[] {
  const random = Random.of(seed, 'trip-charges', booking);
  const charges: ChargeBody[] = [];
  if (random.chance(DRIVER_BEHAVIOUR.toll)) charges.push({ kind: 'toll', amountInInr: between(random, DRIVER_BEHAVIOUR.tollInr), note: 'Simulated toll plaza' });
  if (random.chance(DRIVER_BEHAVIOUR.parking)) charges.push({ kind: 'parking', amountInInr: between(random, DRIVER_BEHAVIOUR.parkingInr), note: 'Simulated parking' });
  return charges;
}

/** The stops on the way of booking `booking`, in order (most bookings have none): near the straight line from pickup to drop, a little off it. */
export function tripStops(seed: number, booking: number, pickup: Point, drop: Point): Point[] {
  const random = Random.of(seed, 'trip-stops', booking);
  if (!random.chance(RIDER_BEHAVIOUR.stops)) return [];
  const count = random.chance(0.5) ? 1 : 2;
  return Array.from({ length: count }, (_, i) => {
    const along = (i + 1) / (count + 1);
    const onLine = { lat: pickup.lat + (drop.lat - pickup.lat) * along, lon: pickup.lon + (drop.lon - pickup.lon) * along };
    return rounded(offsetKm(onLine, random.between(-0.4, 0.4), random.between(-0.4, 0.4)));
  });
}

/** How long the car of booking `booking` waits at its stop `stop`. */
export function stopWait(seed: number, booking: number, stop: number): number {
  return between(Random.of(seed, 'stop-wait', booking, stop), RIDER_BEHAVIOUR.stopWaitMs);
}

/** The stars the driver of booking `booking` gives its rider, or null. */
export function driverRating(seed: number, booking: number): number | null {
  const random = Random.of(seed, 'driver-rating', booking);
  return random.chance(DRIVER_BEHAVIOUR.rates) ? stars(random, DRIVER_BEHAVIOUR.stars) : null;
}

/** How long driver `driver` idles after its `trips`-th trip, and the generator for where it then heads. */
export function idleWait(seed: number, driver: number, trips: number): { afterMs: number; random: Random } {
  const random = Random.of(seed, 'idle', driver, trips);
  return { afterMs: between(random, DRIVER_BEHAVIOUR.idleBeforeMovingMs), random };
}
