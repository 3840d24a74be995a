import { parseArgs } from 'node:util';
import type { DispatchMode } from '../src/contract/types.ts';
import type { AdminAccess } from './accounts.ts';
import { cityNames, loadCity, type City } from './cities.ts';
import type { CityDay } from './simulation.ts';

/** The modes whose offers simulated drivers answer (in `broadcast` nobody is offered anything). */
export const COMPARABLE_MODES: readonly DispatchMode[] = ['nearest', 'batched'];

export interface CliOptions extends CityDay {
  url: string | undefined;
  admin: AdminAccess | undefined;
  compare: DispatchMode[] | undefined;
  dispatch: DispatchMode;
  report: string | undefined;
  json: string | undefined;
  osrmUrl: string | undefined;
  /** The payment provider stand-in the service at --url is configured with; riders pay cash without it. */
  providerUrl: string | undefined;
  /** Save the simulated city's pricing on the service at --url, as the embedded services get it (simulation.ts). */
  cityPricing: boolean;
  help: boolean;
}

export class OptionsError extends Error {}

export type Command = 'simulate' | 'demo';

/**
 * Defaults: a simulated morning hour at 20× speed (3 minutes); the demo runs a day at 20× until
 * stopped. Riders only need to outnumber the rides open at once, and each account costs two
 * deliberately slow password hashes, so there are not many more riders than drivers.
 *
 * --compare has its own: the modes choose differently only when rides compete for the same
 * drivers, which a whole city's 40 drivers and a few requests a minute almost never do (both modes
 * then make the same choices, to the ride). So: central Bengaluru with one ride type, demand at six
 * times what 30 drivers can carry, 20 minutes at 40×, a short drain. About three minutes for both
 * modes on a two-core machine (docs/simulator.md).
 */
type Profile = { city: string; drivers: number; riders: number; minutes: number; speed: number; start: string; load: number; drain: number };
const DEFAULTS: Record<Command | 'compare', Profile> = {
  simulate: { city: 'bengaluru', drivers: 40, riders: 80, minutes: 60, speed: 20, start: '08:00', load: 1, drain: 90 },
  compare: { city: 'bengaluru-centre', drivers: 30, riders: 120, minutes: 20, speed: 40, start: '08:00', load: 6, drain: 10 },
  demo: { city: 'bengaluru', drivers: 50, riders: 90, minutes: 1440, speed: 20, start: '08:00', load: 1.5, drain: 90 },
};

export function usage(command: Command): string {
  const d = DEFAULTS[command];
  const c = DEFAULTS.compare;
  const target =
    command === 'simulate'
      ? `  --url URL                 the service (default http://localhost:8080)
  --admin-email E --admin-password P   log in as this ADMIN (or SIMULATOR_ADMIN_PASSWORD in the environment)
  --admin-token T           an ADMIN's access token (or SIMULATOR_ADMIN_TOKEN)
  --provider-url URL        the payment provider stand-in the service uses (npm run dev:provider): riders may pay online;
                            without it every rider pays cash
  --city-pricing            save the simulated city's pricing on the service, as the embedded services get it: tolls and
                            parking passed through up to ₹500 a ride, a night charge of at least 1.25×, and the night
                            window moved to when the simulated night runs on the service's clock (new pricing versions:
                            for a service of your own)
  --compare MODES           nearest,batched: the same seeded day on an embedded service per dispatch mode, side by side
                            (about 3 minutes; its defaults: --city ${c.city} --drivers ${c.drivers} --riders ${c.riders} --minutes ${c.minutes}
                            --speed ${c.speed} --load ${c.load} --drain ${c.drain})
`
      : `  --dispatch MODE           the embedded service's DISPATCH_MODE: nearest or batched (default batched)
`;
  return `npm run ${command} -- [options]

${target}  --city NAME|FILE.json     ${cityNames().join(', ')}, or a city file of the same shape (default ${d.city})
  --drivers N               simulated drivers (default ${d.drivers})
  --riders M                simulated riders (default ${d.riders})
  --minutes T               simulated minutes of bookings (default ${d.minutes})
  --speed X                 simulated time runs X times faster than the clock (default ${d.speed})
  --start HH:MM             time of day the run starts at (default ${d.start})
  --load L                  requests at the busiest hour, as a multiple of what the drivers can serve (default ${d.load})
  --seed S                  the seed of every choice (default 1)
  --drain T                 simulated minutes to wait for open rides after the last booking (default ${d.drain})
  --report FILE.html        also write a page with charts over time
  --json FILE               also write the figures as JSON (over time included); - prints them after the table
  --help

OSRM_URL in the environment routes cars over roads through an OSRM server. See docs/simulator.md.`;
}

/** Parses and checks the command line; a bad value is an OptionsError naming the option. */
export function parseOptions(argv: string[], command: Command, env: NodeJS.ProcessEnv = process.env): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'admin-token': { type: 'string' },
      city: { type: 'string' },
      seed: { type: 'string', default: '1' },
      drivers: { type: 'string' },
      riders: { type: 'string' },
      minutes: { type: 'string' },
      speed: { type: 'string' },
      start: { type: 'string' },
      load: { type: 'string' },
      drain: { type: 'string' },
      compare: { type: 'string' },
      dispatch: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'string' },
      'provider-url': { type: 'string' },
      'city-pricing': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  // What is not given comes from the command's defaults, or --compare's.
  const d = DEFAULTS[command === 'simulate' && values.compare !== undefined ? 'compare' : command];
  const given = <K extends keyof Profile>(key: K): string => values[key] ?? String(d[key]);
  let city: City;
  try {
    city = loadCity(given('city'));
  } catch (error) {
    throw new OptionsError(`--city: ${(error as Error).message}`);
  }
  const compare = values.compare === undefined ? undefined : values.compare.split(',').map((mode) => dispatchMode(mode.trim(), '--compare'));
  if (command === 'demo' && (values.url || values.compare || values['provider-url'])) {
    throw new OptionsError('the demo starts its own service and payment stand-in: --url, --provider-url and --compare belong to npm run simulate');
  }
  if (compare && values['provider-url']) throw new OptionsError('--compare starts its own payment stand-in: leave out --provider-url');
  if (command === 'simulate' && values.dispatch) throw new OptionsError('--dispatch sets the demo\'s embedded service; the service at --url keeps its own DISPATCH_MODE (compare modes with --compare)');
  if (compare && values.url) throw new OptionsError('--compare starts an embedded service per mode: leave out --url');
  if ((command === 'demo' || compare) && values['city-pricing']) throw new OptionsError('--city-pricing is for a service at --url: the embedded services of the demo and --compare get the city\'s pricing anyway');
  if (compare && new Set(compare).size < 2) throw new OptionsError('--compare needs two different modes, e.g. nearest,batched');
  return {
    url: values.url,
    admin: adminAccess(values, env),
    city,
    seed: integer(values.seed, '--seed', 0, 2 ** 31),
    drivers: integer(given('drivers'), '--drivers', 1, 2000),
    riders: integer(given('riders'), '--riders', 1, 10_000),
    minutes: number(given('minutes'), '--minutes', 1, 7 * 1440),
    speed: number(given('speed'), '--speed', 0.1, 600),
    startMinute: timeOfDay(given('start')),
    load: number(given('load'), '--load', 0.01, 20),
    drainMinutes: number(given('drain'), '--drain', 0, 1440),
    compare,
    dispatch: dispatchMode(values.dispatch ?? 'batched', '--dispatch'),
    report: values.report,
    json: values.json,
    osrmUrl: env.OSRM_URL || undefined,
    providerUrl: values['provider-url'],
    cityPricing: values['city-pricing'],
    help: values.help,
  };
}

function adminAccess(values: { 'admin-email'?: string; 'admin-password'?: string; 'admin-token'?: string }, env: NodeJS.ProcessEnv): AdminAccess | undefined {
  const token = values['admin-token'] ?? env.SIMULATOR_ADMIN_TOKEN;
  if (token) return { token };
  const email = values['admin-email'];
  const password = values['admin-password'] ?? env.SIMULATOR_ADMIN_PASSWORD;
  if (email && password) return { email, password };
  if (email || values['admin-password']) throw new OptionsError('--admin-email and --admin-password go together');
  return undefined;
}

function dispatchMode(value: string, option: string): DispatchMode {
  const mode = COMPARABLE_MODES.find((m) => m === value);
  if (!mode) throw new OptionsError(`${option} takes ${COMPARABLE_MODES.join(' or ')} (simulated drivers answer offers; broadcast makes none)`);
  return mode;
}

function number(value: string, option: string, min: number, max: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new OptionsError(`${option} must be a number from ${min} to ${max}`);
  return n;
}

function integer(value: string, option: string, min: number, max: number): number {
  const n = number(value, option, min, max);
  if (!Number.isInteger(n)) throw new OptionsError(`${option} must be a whole number`);
  return n;
}

function timeOfDay(value: string): number {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new OptionsError('--start must be a time of day, HH:MM');
  return Number(match[1]) * 60 + Number(match[2]);
}
