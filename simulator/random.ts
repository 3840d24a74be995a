// Every choice the simulator makes comes from here. A choice is keyed by what it is about (the
// seed, "offer", driver 3, booking 17), never drawn from one shared stream: events arrive in a
// slightly different order from run to run, and a shared stream would let that reorder every
// later choice. Keyed, the same driver answers the same booking the same way in every run.

/** A 32-bit hash of the parts (FNV-1a over their text, then murmur3's finaliser to spread the bits). */
export function hashKey(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    h ^= char.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded generator (mulberry32): plenty for choices, not for secrets. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The generator of one keyed decision: `Random.of(seed, 'offer', driver, booking)`. */
  static of(...parts: ReadonlyArray<string | number>): Random {
    return new Random(hashKey(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Exponential with this mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** One of the items, each as likely as its weight. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    let left = this.next() * total;
    for (const item of items) {
      left -= weight(item);
      if (left < 0) return item;
    }
    return items[items.length - 1];
  }

  /** A key of a table of shares (`{ bike: 0.2, auto: 0.25, … }`). */
  share<K extends string>(table: Readonly<Record<K, number>>): K {
    return this.weighted(Object.keys(table) as K[], (key) => table[key]);
  }
}
