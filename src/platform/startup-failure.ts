import { withoutCredentials } from './banner.ts';

/**
 * A dependency the configuration names could not be reached at start-up: which variable pointed
 * there, and the error behind it. The process then stops with one line (explainStartupFailure)
 * instead of a stack trace that names neither.
 */
export class StartupFailure extends Error {
  readonly variable: string;
  readonly value: string;
  /** What went wrong, when the caller knows better than the error's code can tell. */
  readonly problem: string | undefined;

  constructor(variable: string, value: string, cause: unknown, problem?: string) {
    super(`${variable} could not be used`, { cause });
    this.variable = variable;
    this.value = value;
    this.problem = problem;
  }
}

/** Listening failed: a host that is not this machine's is HOST's fault, anything else PORT's. */
export function listenFailure(error: unknown, host: string, port: number): StartupFailure {
  const hostProblem = codesOf(error).some((code) => ['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL'].includes(code));
  return hostProblem ? new StartupFailure('HOST', host, error) : new StartupFailure('PORT', String(port), error);
}

/** The error codes of the whole cause chain, outermost first (pg, ioredis and node:net put them on different levels). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') codes.push(code);
    // Errors that carry several attempts (IPv4 and IPv6 of localhost) keep them in `errors`.
    for (const inner of (current as { errors?: unknown[] }).errors ?? []) codes.push(...codesOf(inner));
  }
  return codes;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** One line for a person: the variable, its value without credentials, what went wrong, and what to check. */
export function explainStartupFailure(error: StartupFailure): string {
  const codes = codesOf(error.cause);
  const has = (...wanted: string[]) => codes.some((code) => wanted.includes(code));
  const where = `${error.variable}=${shown(error.variable, error.value)}`;
  const cause = messageOf(error.cause);
  let problem: string;
  if (error.problem) problem = error.problem;
  else if (error.variable === 'DATABASE_URL') problem = databaseProblem(has, cause, error.value);
  else if (error.variable === 'REDIS_URL') problem = redisProblem(has, cause);
  else problem = listenProblem(has, error.variable, cause);
  return `Cannot start: ${where}: ${problem}`;
}

function shown(variable: string, value: string): string {
  if (variable === 'DATABASE_URL' && value.startsWith('sqlite:')) return value;
  return /^\w+:\/\//.test(value) ? withoutCredentials(value) : value;
}

type Has = (...codes: string[]) => boolean;

function databaseProblem(has: Has, cause: string, value: string): string {
  if (value.startsWith('sqlite:')) return `cannot open the database file (${cause}); check that its folder exists or can be created, and is writable`;
  const name = /database "([^"]+)" does not exist/.exec(cause)?.[1];
  if (has('3D000')) return `the database${name ? ` "${name}"` : ''} does not exist; create it (createdb ${name ?? '<name>'}) or point DATABASE_URL at one that does`;
  if (has('ECONNREFUSED')) return 'PostgreSQL refused the connection (ECONNREFUSED); is it running and listening on that host and port?';
  if (has('ENOTFOUND', 'EAI_AGAIN')) return "the host name does not resolve (ENOTFOUND); check DATABASE_URL's host";
  if (has('28P01', '28000')) return `PostgreSQL refused the login (${cause}); check the user and password in DATABASE_URL`;
  if (has('ETIMEDOUT') || /timeout/i.test(cause)) return 'PostgreSQL did not answer in time; check the host, the port and any firewall between';
  return `PostgreSQL could not be used (${cause})`;
}

function redisProblem(has: Has, cause: string): string {
  if (has('ECONNREFUSED')) return 'Redis refused the connection (ECONNREFUSED); is it running and listening on that host and port? Leave REDIS_URL unset for one instance without Redis';
  if (has('ENOTFOUND', 'EAI_AGAIN')) return "the host name does not resolve (ENOTFOUND); check REDIS_URL's host";
  if (/WRONGPASS|NOAUTH/.test(cause)) return `Redis refused the login (${cause}); check the password in REDIS_URL`;
  return `Redis did not become ready (${cause}); check REDIS_URL, or leave it unset for one instance without Redis`;
}

function listenProblem(has: Has, variable: string, cause: string): string {
  if (has('EADDRINUSE')) return 'the port is already in use (EADDRINUSE), perhaps by another copy of this service; stop it or choose another PORT';
  if (has('EACCES')) return 'this user may not listen on that port (EACCES); choose a PORT above 1023';
  if (has('ENOTFOUND', 'EAI_AGAIN')) return 'the host name does not resolve (ENOTFOUND); use an address of this machine, such as 0.0.0.0 or 127.0.0.1';
  if (has('EADDRNOTAVAIL')) return 'that address is not one of this machine (EADDRNOTAVAIL); use 0.0.0.0, 127.0.0.1 or an address of this machine';
  return `cannot listen there (${cause}); check ${variable === 'PORT' ? 'PORT and HOST' : 'HOST and PORT'}`;
}
