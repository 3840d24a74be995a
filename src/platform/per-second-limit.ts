/**
 * At most `limit` events per key in each second of the clock, for limits on a hot path (a driver's
 * positions): one map of counts that is emptied when the second changes, so a check is a lookup and
 * a store, and memory holds only the keys seen in the current second. A limit of 0 allows everything.
 */
export class PerSecondLimit {
  readonly #limit: number;
  readonly #counts = new Map<number, number>();
  #second = -1;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts one event of `key` at `now` (epoch ms); false when it is over the limit. */
  take(key: number, now: number): boolean {
    if (this.#limit === 0) return true;
    const second = Math.floor(now / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#counts.clear();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count <= this.#limit;
  }
}
