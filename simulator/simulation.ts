import { performance } from 'node:perf_hooks';
import { adminClient, createAccounts, inParallel, type AdminAccess } from './accounts.ts';
import { Http } from './api.ts';
import type { City } from './cities.ts';
import { CityPricing } from './city-pricing.ts';
import { Scheduler, SimClock } from './clock.ts';
import { clockLabel, planBookings, planDrivers, type PlannedBooking } from './demand.ts';
import { SimDriver } from './driver.ts';
import { Ledger, type Figures } from './figures.ts';
import type { PaymentStep } from './payments.ts';
import { SimRider } from './rider.ts';
import { OsrmRouter, StraightRouter } from './routing.ts';
import { World } from './world.ts';

/** The simulated day: the same values give the same bookings and drivers. */
export interface CityDay {
  city: City;
  seed: number;
  drivers: number;
  riders: number;
  /** Simulated minutes during which riders book. */
  minutes: number;
  speed: number;
  /** Time of day the run starts at, in minutes after midnight. */
  startMinute: number;
  load: number;
  /** Simulated minutes the run waits after the last booking for open rides to end. */
  drainMinutes: number;
}

export interface RunOptions extends CityDay {
  url: string;
  admin: AdminAccess;
  osrmUrl?: string;
  payments: PaymentStep;
  /** Save the simulated city's pricing on the service (city-pricing.ts): tolls and parking passed through, the night where the simulated one runs. */
  cityPricing: boolean;
  /** Ends the run early (Ctrl-C): open rides are cancelled and the figures cover what happened. */
  signal?: AbortSignal;
  /** Progress lines and warnings. */
  log: (line: string) => void;
}

/** What a run was, for the header of its figures. */
export interface RunSettings {
  url: string;
  city: string;
  seed: number;
  drivers: number;
  riders: number;
  minutes: number;
  speed: number;
  start: string;
  load: number;
  routing: string;
  payments: string;
  /** Answers the service rate-limited (429) and the simulator waited out. */
  rateLimited: number;
  /** Things that went wrong along the way (refused messages, failed calls); the first few are printed. */
  warnings: number;
  stoppedEarly: boolean;
}

export interface RunResult {
  settings: RunSettings;
  figures: Figures;
}

/** A driver reports every 5 s of simulated time, but at most this often in real time (the channel takes 5 a second). */
const MIN_REAL_REPORT_MS = 300;
const REPORT_EVERY_MS = 5_000;
const SAMPLE_EVERY_MS = 30_000;
/** Riders pay and rate a minute after the drop-off; the run waits for that before it ends. */
const SETTLE_MS = 90_000;
const PRINTED_WARNINGS = 10;
const BUCKET_MINUTES = [1, 2, 5, 10, 15, 30, 60];

/** One simulated stretch of a city's day against a running service. */
export async function simulate(options: RunOptions): Promise<RunResult> {
  const { city, seed, speed, log } = options;
  const http = new Http(options.url);
  const admin = await adminClient(http, options.admin);
  const setupStarted = performance.now();
  log(`creating ${options.drivers} drivers and ${options.riders} riders through POST /admin/users …`);
  const accounts = await createAccounts(admin, options);
  const pricing = options.cityPricing ? await CityPricing.read(admin) : null;

  let warnings = 0;
  const warn = (text: string) => {
    if (++warnings <= PRINTED_WARNINGS) log(`warning: ${text}${warnings === PRINTED_WARNINGS ? ' (further warnings are only counted)' : ''}`);
  };
  const clock = new SimClock(speed);
  const scheduler = new Scheduler(clock, (error) => warn(error instanceof Error ? error.message : String(error)));
  const ledger = new Ledger();
  const straight = new StraightRouter(city.roadFactor);
  const world = new World({
    seed,
    city,
    clock,
    scheduler,
    ledger,
    router: options.osrmUrl ? new OsrmRouter(options.osrmUrl, straight, warn) : straight,
    payments: options.payments,
    baseUrl: http.baseUrl,
    startMinute: options.startMinute,
    reportEveryMs: Math.max(REPORT_EVERY_MS, MIN_REAL_REPORT_MS * speed),
    warn,
  });
  const drivers = planDrivers(options).map((plan, i) => new SimDriver(plan, accounts.drivers[i], world));
  const riders = accounts.riders.map((client, i) => new SimRider(i, client, world));
  let endedAt: number;
  try {
    await inParallel(drivers.length, (i) => drivers[i].prepare());
    await inParallel(riders.length, (i) => riders[i].open());
    log(`accounts signed in and connected in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);
    endedAt = await run(world, drivers, riders, options, pricing);
    // Nothing may be left open on the service: rides are cancelled, then drivers go offline.
    await inParallel(riders.length, (i) => riders[i].endRun());
    await inParallel(drivers.length, (i) => drivers[i].goOffline());
    log(progress(world, options.startMinute));
  } finally {
    scheduler.stop();
    for (const app of [...drivers, ...riders]) app.close();
  }

  // From the booking window (as far as the run got), not the run's length, so compared runs share their intervals.
  const bucketMinutes = BUCKET_MINUTES.find((m) => m >= Math.min(options.minutes, endedAt / 60_000) / 20) ?? 60;
  return {
    settings: {
      url: http.baseUrl,
      city: city.name,
      seed,
      drivers: options.drivers,
      riders: options.riders,
      minutes: options.minutes,
      speed,
      start: clockLabel(options.startMinute, 0),
      load: options.load,
      routing: options.osrmUrl ? `OSRM at ${options.osrmUrl} (straight lines × ${city.roadFactor} where it fails)` : `straight lines × ${city.roadFactor}`,
      payments: options.payments.description,
      rateLimited: http.rateLimited,
      warnings,
      stoppedEarly: options.signal?.aborted === true,
    },
    figures: ledger.figures(bucketMinutes * 60_000, (at) => clockLabel(options.startMinute, at)),
  };
}

/**
 * The day itself: drivers go online, the planned requests are booked, and after the last one the
 * open rides get `--drain` simulated minutes to end, then riders a moment to pay and rate. Returns
 * the simulated time it stopped at, with every action finished.
 */
async function run(world: World, drivers: SimDriver[], riders: SimRider[], options: RunOptions, pricing: CityPricing | null): Promise<number> {
  const { clock, scheduler, ledger } = world.settings;
  const bookings = planBookings(options);
  options.log(
    `${options.city.name}, seed ${options.seed}: ${bookings.length} requests planned over ${options.minutes} simulated minutes from ${clockLabel(options.startMinute, 0)}, at ${options.speed}× speed`,
  );
  const book = (booking: PlannedBooking) => {
    // The planned rider, or the next one who is not already on a trip.
    for (let k = 0; k < riders.length; k++) {
      const rider = riders[(booking.rider + k) % riders.length];
      if (rider.free) return rider.book(booking);
    }
    ledger.bookingFailed('NO_FREE_RIDER');
  };
  const every = (intervalMs: number, action: () => void) => {
    const tick = () => {
      action();
      scheduler.after(intervalMs, tick);
    };
    scheduler.at(0, tick);
  };

  const startedAt = clock.start();
  // Before the first booking, so that every ride is priced with the city's version.
  if (pricing) await pricing.follow({ startedAt, startMinute: options.startMinute, speed: options.speed }, scheduler);
  for (const driver of drivers) scheduler.at(driver.plan.onlineAfterMs, () => driver.goOnline());
  for (const booking of bookings) scheduler.at(booking.at, () => book(booking));
  every(SAMPLE_EVERY_MS, () => ledger.sample(clock.now()));
  every(Math.max(60_000, 5_000 * options.speed), () => options.log(progress(world, options.startMinute)));

  const stopped = () => options.signal?.aborted === true;
  const bookingEnd = options.minutes * 60_000;
  await until(() => stopped() || clock.now() >= bookingEnd);
  if (!stopped()) options.log(`${clockLabel(options.startMinute, clock.now())} no more bookings; waiting up to ${options.drainMinutes} simulated minutes for open rides to end`);
  await until(() => stopped() || world.openRides().length === 0 || clock.now() >= bookingEnd + options.drainMinutes * 60_000);
  const settleUntil = clock.now() + SETTLE_MS;
  await until(() => stopped() || world.openRides().length > 0 || clock.now() >= settleUntil);
  const endedAt = clock.now();
  scheduler.stop();
  await scheduler.settle();
  return endedAt;
}

function progress(world: World, startMinute: number): string {
  const { ledger } = world.settings;
  const rides = [...ledger.rides.values()];
  const recent = rides.slice(-10);
  const surge = recent.length === 0 ? '–' : (recent.reduce((sum, r) => sum + r.surge, 0) / recent.length).toFixed(2);
  const matched = rides.filter((r) => r.acceptedAt !== undefined).length;
  return `[${clockLabel(startMinute, world.now)}] ${[
    `requests ${rides.length}`,
    `matched ${matched}`,
    `completed ${rides.filter((r) => r.completedAt !== undefined).length}`,
    `open ${world.openRides().length}`,
    `drivers ${ledger.onlineDrivers} online, ${ledger.busyDrivers} busy`,
    `surge charged ${surge}`,
  ].join(' · ')}`;
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 100));
}
