/**
 * A map from positive integer ids to small integers, held in two typed arrays (open addressing,
 * linear probing, backward-shift deletion). A million entries cost 24 MB outside the JS heap,
 * where a Map would hold a million entries that every garbage collection has to walk.
 */
export class IdTable {
  #keys = new Float64Array(1024);
  #values = new Int32Array(1024);
  #mask = 1023;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The value for `id`, or -1. */
  get(id: number): number {
    for (let i = this.#home(id); ; i = (i + 1) & this.#mask) {
      const key = this.#keys[i];
      if (key === id) return this.#values[i];
      if (key === 0) return -1;
    }
  }

  set(id: number, value: number): void {
    let i = this.#home(id);
    while (this.#keys[i] !== 0 && this.#keys[i] !== id) i = (i + 1) & this.#mask;
    if (this.#keys[i] === 0) {
      this.#keys[i] = id;
      this.#size++;
    }
    this.#values[i] = value;
    if (this.#size * 2 > this.#keys.length) this.#resize(this.#keys.length * 2);
  }

  delete(id: number): void {
    let hole = this.#home(id);
    while (this.#keys[hole] !== id) {
      if (this.#keys[hole] === 0) return;
      hole = (hole + 1) & this.#mask;
    }
    this.#keys[hole] = 0;
    this.#size--;
    // Pull back later entries of the probe run that may no longer be reachable across the hole.
    for (let i = (hole + 1) & this.#mask; this.#keys[i] !== 0; i = (i + 1) & this.#mask) {
      const home = this.#home(this.#keys[i]);
      const reachable = hole <= i ? home > hole && home <= i : home > hole || home <= i;
      if (reachable) continue;
      this.#keys[hole] = this.#keys[i];
      this.#values[hole] = this.#values[i];
      this.#keys[i] = 0;
      hole = i;
    }
  }

  clear(): void {
    this.#keys.fill(0);
    this.#size = 0;
  }

  #home(id: number): number {
    return (Math.imul(id | 0, 0x9e3779b1) ^ Math.floor(id / 2 ** 32)) & this.#mask;
  }

  #resize(capacity: number): void {
    const [keys, values] = [this.#keys, this.#values];
    this.#keys = new Float64Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#mask = capacity - 1;
    this.#size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.set(keys[i], values[i]);
  }
}
