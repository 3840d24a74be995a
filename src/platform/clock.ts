/** Current time in epoch milliseconds; tests pass their own to move time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The last whole second written and its text up to the milliseconds (`2026-11-28T18:45:12.`). */
let isoSecond = Number.NaN;
let isoPrefix = '';
/** The last instant `toISOString` can write with a four-digit year (9999-12-31T23:59:59.999Z). */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

/**
 * `new Date(epochMs).toISOString()`, the same text, but timestamps of one second share the date's
 * part: `toISOString` formats in the runtime each time, which was some 3 % of a position report's
 * CPU, and a busy second writes thousands of them (every report answers its time). Anything but a
 * whole millisecond in 1970–9999 takes the plain way, so odd values keep their exact text or error.
 */
export function toIso(epochMs: number): string {
  if (!(epochMs >= 0 && epochMs <= LAST_FOUR_DIGIT_YEAR_MS) || epochMs % 1 !== 0) return new Date(epochMs).toISOString();
  const second = Math.floor(epochMs / 1000);
  if (second !== isoSecond) {
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    isoSecond = second;
  }
  const millis = epochMs - second * 1000;
  return `${isoPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
export const toIsoOrNull = (epochMs: number | null): string | null => (epochMs === null ? null : toIso(epochMs));

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading in the zone at that instant, written as if it were UTC (so Date.UTC arithmetic applies). */
function wallClockAsUtc(epochMs: number, timeZone: string): { ms: number; day: number } {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
    dateTimeFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(epochMs).map(({ type, value }) => [type, Number(value)]));
  const day = Date.UTC(part.year, part.month - 1, part.day);
  return { ms: day + ((part.hour * 60 + part.minute) * 60 + part.second) * 1000, day };
}

/** When the day of `epochMs` began in the IANA zone (local midnight), as epoch milliseconds. */
export function startOfLocalDay(epochMs: number, timeZone: string): number {
  const offsetAt = (at: number) => wallClockAsUtc(at, timeZone).ms - Math.floor(at / 1000) * 1000;
  const { day } = wallClockAsUtc(epochMs, timeZone);
  // The offset at midnight may differ from the one now (a daylight-saving change during the day):
  // guess with today's, then correct with the offset at the guess.
  const guess = day - offsetAt(epochMs);
  return day - offsetAt(guess);
}

/** The calendar date (`YYYY-MM-DD`) in the IANA zone at that instant. */
export function localDate(epochMs: number, timeZone: string): string {
  return new Date(wallClockAsUtc(epochMs, timeZone).day).toISOString().slice(0, 10);
}

/** When a calendar date (`YYYY-MM-DD`) began in the IANA zone (its local midnight), as epoch milliseconds. */
export function startOfLocalDate(date: string, timeZone: string): number {
  const noon = Date.parse(`${date}T12:00:00Z`);
  // Local noon of that date is within 14 hours of UTC noon; from there, back to its midnight.
  const offset = wallClockAsUtc(noon, timeZone).ms - noon;
  return startOfLocalDay(noon - offset, timeZone);
}

/** The last minute asked about, per zone: every quote asks for the local time of (nearly) now, several times. */
const lastAsked = new Map<string, { minute: number; weekday: number; minuteOfDay: number }>();

/**
 * The local weekday (0 Monday … 6 Sunday) and minute of the day in the IANA zone at that instant. Formatting
 * a date in a zone costs microseconds, and the answer is the same for a whole minute (zone offsets are whole
 * minutes), so the last minute asked is remembered per zone.
 */
export function localWeekMinute(epochMs: number, timeZone: string): { weekday: number; minuteOfDay: number } {
  const minute = Math.floor(epochMs / 60_000);
  const last = lastAsked.get(timeZone);
  if (last?.minute === minute) return last;
  const { ms, day } = wallClockAsUtc(minute * 60_000, timeZone);
  // getUTCDay counts from Sunday; the week here starts on Monday.
  const answer = { minute, weekday: (new Date(day).getUTCDay() + 6) % 7, minuteOfDay: (ms - day) / 60_000 };
  lastAsked.set(timeZone, answer);
  return answer;
}
