import { humanBanner, type StartupSummary } from './banner.ts';

// A person running `npm start` in a terminal reads the log as it scrolls: one short line per entry
// instead of pino's JSON, the start-up summary as the banner, and a logged mail (the sign-up code,
// without SMTP_URL) as its text. Anywhere else (a pipe, a file, a container's log collector) the
// log stays JSON, one object per line; this only changes what a terminal shows.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// Every line has these; they say nothing a person needs on a terminal.
const SKIPPED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err', 'mail', 'startup']);

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; route?: string; path?: string; query?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  mail?: { to?: string; subject?: string; text?: string };
  startup?: StartupSummary;
  [key: string]: unknown;
}

/** One log entry (a JSON line from pino) as a person reads it; lines that are not JSON pass unchanged. */
export function readableLogLine(json: string): string {
  let entry: Entry;
  try {
    entry = JSON.parse(json) as Entry;
  } catch {
    return json;
  }
  if (entry.startup) return `${humanBanner(entry.startup)}\n`;
  const time = new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8);
  const parts = [time, (LEVELS[entry.level ?? 30] ?? 'INFO').padEnd(5)];
  if (entry.req) parts.push(`${entry.req.method ?? ''} ${entry.req.route ?? entry.req.path ?? ''}${entry.req.query ? `?${entry.req.query}` : ''}`);
  if (entry.res?.statusCode !== undefined) parts.push(`→ ${entry.res.statusCode}${entry.responseTime === undefined ? '' : ` in ${Math.round(entry.responseTime)} ms`}`);
  else parts.push(entry.msg ?? '');
  if (entry.reqId) parts.push(`(${entry.reqId})`);
  const rest = Object.entries(entry).filter(([key]) => !SKIPPED.has(key));
  if (rest.length > 0) parts.push(JSON.stringify(Object.fromEntries(rest)));
  let text = parts.filter(Boolean).join(' ');
  if (entry.mail) text += `\n  Mail to ${entry.mail.to}: ${entry.mail.subject}\n${indent(entry.mail.text ?? '')}`;
  if (entry.err) text += `\n${indent((entry.level ?? 30) >= 50 && entry.err.stack ? entry.err.stack : `${entry.err.type ?? 'Error'}: ${entry.err.message ?? ''}`)}`;
  return `${text}\n`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

/** A pino destination that writes readable lines to a terminal. */
export function terminalLog(out: { write(text: string): unknown }): { write(chunk: string): void } {
  return { write: (chunk) => void out.write(readableLogLine(chunk)) };
}
