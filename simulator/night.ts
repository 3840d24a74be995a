// The service places a drop in its pricing's night window by its own clock, the wall clock, while a
// simulated city's night passes `speed` times faster at whatever hour the run happens to be. To price
// the simulated night as night, the simulator moves the window of a service it may reprice onto the
// stretch of wall-clock time in which the simulated night runs (docs/simulator.md "Night rides").

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

/** A daily window in HH:MM, as the pricing document writes it (a window past midnight wraps). */
export interface ClockWindow {
  start: string;
  end: string;
}

/** How simulated time lines up with the wall clock: simulated ms 0 is `startedAt` (epoch ms) at `startMinute` of the simulated day. */
export interface RunTimeline {
  startedAt: number;
  startMinute: number;
  speed: number;
}

/** The simulated night (a window of the simulated day) that ends after `afterSimMs`, on the service's clock. */
export interface MovedNight {
  window: ClockWindow;
  /** Simulated ms at which that night ends: after it, the next night needs a window of its own. */
  endsAtSimMs: number;
}

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The first simulated night `night` that is still running or to come at simulated ms `afterSimMs`, as
 * the wall-clock window (HH:MM in the service's `timeZone`) during which it runs. The pricing document
 * counts whole minutes, so each end is the nearest wall-clock minute: at 20× a simulated night is off
 * by at most 10 simulated minutes at either end. Null when the window is empty (start = end) or shorter
 * than a wall-clock minute at this speed.
 */
export function nightOnServiceClock(night: ClockWindow, timeline: RunTimeline, afterSimMs: number, timeZone: string): MovedNight | null {
  const length = (minutesOf(night.end) - minutesOf(night.start) + DAY_MINUTES) % DAY_MINUTES;
  if (length === 0) return null;
  // The night that began on the run's first simulated day, or the day before for a run starting inside it.
  let startSim = (((minutesOf(night.start) - timeline.startMinute) % DAY_MINUTES) - DAY_MINUTES) * MINUTE;
  while (startSim + length * MINUTE <= afterSimMs) startSim += DAY_MINUTES * MINUTE;
  const endSim = startSim + length * MINUTE;
  const wallClock = (simMs: number) => clockTime(timeline.startedAt + simMs / timeline.speed, timeZone);
  const window = { start: wallClock(startSim), end: wallClock(endSim) };
  return window.start === window.end ? null : { window, endsAtSimMs: endSim };
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** HH:MM in the zone at the nearest whole minute to `epochMs`. */
function clockTime(epochMs: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  return format.format(Math.round(epochMs / MINUTE) * MINUTE);
}
