import type { Point } from '../../platform/geo/geo.ts';
import { neighboursOf, zoneOf } from '../../platform/geo/zones.ts';
import type { Router } from '../../platform/routing/router.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { pairRides, searchRadiusKm } from '../dispatch/dispatcher.ts';
import type { PickupWays } from '../dispatch/pickup-ways.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import { zoneSurge, type ZoneCounts } from '../insights/zone-surge.ts';
import { quoteFare } from '../pricing/pricing.model.ts';
import type { PricingRules } from '../pricing/pricing.schemas.ts';
import { acceptProbability, type AcceptanceModel, type AnswerTimeModel, type CancellationModel, type TripTimeModel } from './behaviour.ts';
import { emptyHours, type HourFigures } from './replay-figures.ts';
import { ReplayFleet } from './replay-fleet.ts';
import { sampleSlotMs, unpackSample } from './supply-samples.ts';

// A period run again through the service's own dispatch round (pairRides: the same candidates, ways
// and pairing) and pricing (quoteFare under a pricing document, zoneSurge from the replay's own
// waiting riders and free drivers), with drivers where the supply samples put them and riders asking
// when they asked. What people would have done differently is drawn from the fitted behaviour:
// drivers accept an offer by its pickup distance and fare, after the period's time to answer (the
// ride and the driver held meanwhile), trips hold their drivers the period's share longer than
// quoted, riders give up at their fitted rate.
// Deterministic for a seed. Riders are assumed to book whatever the price (no fit of price response yet).

export interface ReplayRequest {
  id: number;
  riderId: number;
  /** When the ride entered dispatch (booked now, or released when booked ahead). */
  at: number;
  rideType: RideType;
  pickup: Point;
  drop: Point;
}

export interface ReplayInputs {
  from: number;
  to: number;
  /** Oldest first. */
  requests: readonly ReplayRequest[];
  /** Oldest first, each as stored (packSample): a week of a city's drivers unpacked at once would not fit in memory. */
  samples: ReadonlyArray<{ at: number; packed: string }>;
  vehicles: ReadonlyMap<number, VehicleType>;
  behaviour: { acceptance: AcceptanceModel; cancellation: CancellationModel; answers: AnswerTimeModel; tripTimes: TripTimeModel };
}

export interface ReplaySettings {
  dispatch: { mode: 'nearest' | 'batched'; batchMs: number; offerTtlMs: number; maxMs: number };
  rules: PricingRules;
  pricingVersion: number;
  timeZone: string;
  seed: number;
  /** SIMULATION_SPEED: in a simulated city, trips last their minutes of the city's time, this many times shorter on the clock. */
  speed?: number;
}

export interface ReplayTools {
  router: Pick<Router, 'route'>;
  ways: Pick<PickupWays, 'of'>;
  /** Called now and then with the share of the period done (0 to 1). */
  progress?: (done: number) => void;
}

const HOUR_MS = 3_600_000;

interface Waiting extends ReplayRequest {
  riderId: number;
  zone: string;
  fare: number;
  tripMinutes: number;
  searchingSince: number;
  pickupZone: string;
  refused: Set<number>;
}

/** An offer the replay made and its driver has yet to answer: the ride waits for it, the driver is held. */
interface Pending {
  ride: Waiting;
  driverId: number;
  wayMinutes: number;
  accepts: boolean;
  answerAt: number;
}

/** Runs the period; hour by hour figures, the first hour the one `from` falls in. */
export async function replayPeriod(inputs: ReplayInputs, settings: ReplaySettings, tools: ReplayTools): Promise<HourFigures[]> {
  const { from, to } = inputs;
  const hours = emptyHours(from, to);
  const hourOf = (at: number) => hours[Math.min(hours.length - 1, Math.max(0, Math.floor((at - hours[0].hour) / HOUR_MS)))];
  const next = seeded(settings.seed);
  const fleet = new ReplayFleet();
  let waiting: Waiting[] = [];
  let pending: Pending[] = [];
  let surge = new Map<string, number>();
  let nextRequest = 0;
  let nextSample = 0;
  const { batchMs, offerTtlMs, maxMs, mode } = settings.dispatch;
  const cancelEachRound = 1 - Math.exp(-inputs.behaviour.cancellation.perMinute * (batchMs / 60_000));
  const speed = settings.speed ?? 1;
  const slotMs = sampleSlotMs(speed);
  const { answers, tripTimes } = inputs.behaviour;
  const matchRide = (ride: Waiting, driverId: number, wayMinutes: number, at: number) => {
    fleet.take(driverId, at + (tripTimes.factor * (wayMinutes + ride.tripMinutes) * 60_000) / speed, ride.drop);
    const figures = hourOf(ride.at);
    figures.matched++;
    figures.pickupEtaMinutes.push(wayMinutes);
    figures.fares.push(ride.fare);
    figures.driverEarnings += ride.fare * settings.rules.driverShare;
  };
  /** Whether a waiting rider is still waiting this round (else counted as cancelled). */
  const stays = (ride: Waiting) => (next() < cancelEachRound ? void hourOf(ride.at).cancelled++ : true);

  for (let now = from; now < to; now += batchMs) {
    while (nextSample < inputs.samples.length && inputs.samples[nextSample].at <= now) {
      const sample = inputs.samples[nextSample++];
      const sampleEnd = inputs.samples[nextSample]?.at ?? Math.min(to, sample.at + slotMs);
      fleet.applySample(unpackSample(sample.packed), inputs.vehicles, now);
      hourOf(sample.at).onlineDriverMs += fleet.online * Math.max(0, sampleEnd - sample.at);
    }
    // Answers due: before trips end, so a driver who accepts goes from the offer straight to the trip.
    if (pending.length > 0) {
      pending = pending.filter((offer) => {
        if (offer.answerAt > now) return true;
        if (offer.accepts) matchRide(offer.ride, offer.driverId, offer.wayMinutes, now);
        else waiting.push(offer.ride);
        return false;
      });
    }
    fleet.endTrips(now);
    while (nextRequest < inputs.requests.length && inputs.requests[nextRequest].at <= now) {
      waiting.push(await booked(inputs.requests[nextRequest++], surge, settings, tools, hourOf));
    }
    // Riders who give up, and those dispatch gives up on; a rider waiting on an offer may give up too
    // (its driver stays held until the answer, as the offer stays on the driver's screen).
    waiting = waiting.filter((ride) => stays(ride) && now - ride.searchingSince < maxMs);
    if (pending.length > 0) pending = pending.filter((offer) => stays(offer.ride));
    if (waiting.length > 0) {
      surge = surgeTable([...waiting, ...pending.map((offer) => offer.ride)], fleet.freeByZone);
      const pairs = await pairRides(fleet, waiting, mode, (ride) => searchRadiusKm(now - ride.searchingSince, offerTtlMs), tools.ways, new Map(waiting.map((ride) => [ride.id, ride.refused])));
      const offered = new Set<number>();
      for (const { ride, driver } of pairs) {
        const accepts = next() < acceptProbability(inputs.behaviour.acceptance, driver.way.km, ride.fare);
        // A refusal takes the period's time to decline or let expire, but no longer than this run's offers last.
        const answerMs = accepts ? answers.acceptMeanMs : Math.min(answers.refuseMeanMs, offerTtlMs);
        if (!accepts) ride.refused.add(driver.driverId);
        // An answer due within the round is taken in it: the replay looks again only a round later.
        if (answerMs < batchMs) {
          if (!accepts) continue;
          offered.add(ride.id);
          matchRide(ride, driver.driverId, driver.way.minutes, now);
          continue;
        }
        offered.add(ride.id);
        fleet.hold(driver.driverId, now + answerMs);
        pending.push({ ride, driverId: driver.driverId, wayMinutes: driver.way.minutes, accepts, answerAt: now + answerMs });
      }
      waiting = waiting.filter((ride) => !offered.has(ride.id));
    }
    if (tools.progress && (now - from) % (HOUR_MS) < batchMs) tools.progress((now - from) / (to - from));
  }
  return hours;
}

async function booked(request: ReplayRequest, surge: ReadonlyMap<string, number>, settings: ReplaySettings, tools: ReplayTools, hourOf: (at: number) => HourFigures): Promise<Waiting> {
  const route = await tools.router.route(request.pickup, request.drop);
  const zone = zoneOf(request.pickup);
  const quote = quoteFare(
    { distanceKm: route.distanceKm, drivingMinutes: route.durationMinutes, rideType: request.rideType, surgeMultiplier: surge.get(zone) ?? 1, pickupEtaMinutes: 0, now: request.at, timeZone: settings.timeZone },
    settings.rules,
    settings.pricingVersion,
  );
  const figures = hourOf(request.at);
  figures.requests++;
  if (quote.surgeMultiplier > 1) figures.surged++;
  return { ...request, zone, pickupZone: zone, fare: quote.fare, tripMinutes: quote.durationMinutes, searchingSince: request.at, refused: new Set() };
}

/** The surge the dispatcher would publish: distinct riders waiting and free drivers per zone, with the neighbours of busy zones. */
function surgeTable(waiting: readonly Waiting[], freeByZone: ReadonlyMap<string, number>): Map<string, number> {
  const riders = new Map<string, Set<number>>();
  for (const ride of waiting) riders.set(ride.zone, (riders.get(ride.zone) ?? new Set()).add(ride.riderId));
  const counts = new Map<string, ZoneCounts>();
  for (const [zone, waitingRiders] of riders) {
    counts.set(zone, { demand: waitingRiders.size, supply: freeByZone.get(zone) ?? 0 });
    for (const neighbour of neighboursOf(zone)) {
      if (!counts.has(neighbour)) counts.set(neighbour, { demand: riders.get(neighbour)?.size ?? 0, supply: freeByZone.get(neighbour) ?? 0 });
    }
  }
  return new Map(zoneSurge(counts).map((zone) => [zone.zone, zone.multiplier]));
}

/** mulberry32: a small seeded generator, so a replay draws the same choices every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
