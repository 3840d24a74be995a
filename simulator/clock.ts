import { performance } from 'node:perf_hooks';

/** Simulated time: milliseconds since the run started, running `speed` times faster than the wall clock. */
export class SimClock {
  readonly speed: number;
  #realStart: number | undefined;
  #startedAt = 0;

  constructor(speed: number) {
    this.speed = speed;
  }

  /**
   * Simulated time stands at 0 until the run starts (accounts and connections take real time first).
   * Returns the wall clock (epoch ms) at which it started, for what the service does by its own clock.
   */
  start(): number {
    if (this.#realStart === undefined) {
      this.#realStart = performance.now();
      this.#startedAt = Date.now();
    }
    return this.#startedAt;
  }

  now(): number {
    return this.#realStart === undefined ? 0 : (performance.now() - this.#realStart) * this.speed;
  }

  /** Wall-clock milliseconds until simulated time `at`. */
  realMsUntil(at: number): number {
    return Math.max(0, (at - this.now()) / this.speed);
  }
}

interface Entry {
  at: number;
  order: number;
  action: () => unknown;
  cancelled: boolean;
}

export interface Scheduled {
  cancel(): void;
}

/**
 * Actions at simulated times. Due actions run in time order (ties in the order they were
 * scheduled); an action's own awaits do not hold back the next one, as in a city where everyone
 * acts at once. Failures go to `onError` and never stop the run.
 */
export class Scheduler {
  readonly clock: SimClock;
  readonly #onError: (error: unknown) => void;
  readonly #heap: Entry[] = [];
  readonly #running = new Set<Promise<unknown>>();
  #order = 0;
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Infinity;
  #stopped = false;

  constructor(clock: SimClock, onError: (error: unknown) => void) {
    this.clock = clock;
    this.#onError = onError;
  }

  at(at: number, action: () => unknown): Scheduled {
    const entry: Entry = { at, order: this.#order++, action, cancelled: false };
    if (this.#stopped) return { cancel() {} };
    push(this.#heap, entry);
    if (at < this.#armedFor) this.#arm();
    return { cancel: () => void (entry.cancelled = true) };
  }

  after(delayMs: number, action: () => unknown): Scheduled {
    return this.at(this.clock.now() + delayMs, action);
  }

  /** Runs something now, tracked like a scheduled action (its failure reported, waited for by `settle`). */
  run(action: () => unknown): void {
    try {
      const result = action();
      if (result instanceof Promise) this.#track(result);
    } catch (error) {
      this.#onError(error);
    }
  }

  /** No more actions run; those already running may finish (`settle`). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#heap.length = 0;
  }

  /** Waits for the actions that are running now. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    const next = this.#heap[0];
    if (!next || this.#stopped) {
      this.#armedFor = Infinity;
      return;
    }
    this.#armedFor = next.at;
    this.#timer = setTimeout(() => this.#fire(), this.clock.realMsUntil(next.at));
  }

  #fire(): void {
    const now = this.clock.now();
    while (this.#heap.length > 0 && this.#heap[0].at <= now && !this.#stopped) {
      const entry = pop(this.#heap);
      if (!entry.cancelled) this.run(entry.action);
    }
    this.#arm();
  }

  #track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.#onError(error)).finally(() => this.#running.delete(tracked));
    this.#running.add(tracked);
  }
}

const before = (a: Entry, b: Entry) => a.at < b.at || (a.at === b.at && a.order < b.order);

function push(heap: Entry[], entry: Entry): void {
  heap.push(entry);
  for (let i = heap.length - 1; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i], heap[parent])) break;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function pop(heap: Entry[]): Entry {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let smallest = i;
      if (l < heap.length && before(heap[l], heap[smallest])) smallest = l;
      if (r < heap.length && before(heap[r], heap[smallest])) smallest = r;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
      i = smallest;
    }
  }
  return top;
}
