/** A Map that holds at most `capacity` entries: adding a new key to a full map drops the oldest one. */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #capacity: number;

  constructor(capacity: number) {
    super();
    this.#capacity = capacity;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#capacity && !this.has(key)) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
