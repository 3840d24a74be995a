/** A binary min-heap of nodes by key, on typed arrays; a node may be in it more than once (searches skip stale entries). */
export class MinHeap {
  #keys = new Float64Array(1024);
  #nodes = new Uint32Array(1024);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  /** The smallest key (Infinity when empty). */
  peekKey(): number {
    return this.size > 0 ? this.#keys[0] : Infinity;
  }

  push(node: number, key: number): void {
    if (this.size === this.#keys.length) {
      const keys = new Float64Array(this.size * 2);
      const nodes = new Uint32Array(this.size * 2);
      keys.set(this.#keys);
      nodes.set(this.#nodes);
      [this.#keys, this.#nodes] = [keys, nodes];
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#keys[parent] <= key) break;
      this.#keys[i] = this.#keys[parent];
      this.#nodes[i] = this.#nodes[parent];
      i = parent;
    }
    this.#keys[i] = key;
    this.#nodes[i] = node;
  }

  /** Removes the node with the smallest key and answers it. */
  pop(): number {
    const top = this.#nodes[0];
    const key = this.#keys[--this.size];
    const node = this.#nodes[this.size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.#keys[child + 1] < this.#keys[child]) child++;
      if (this.#keys[child] >= key) break;
      this.#keys[i] = this.#keys[child];
      this.#nodes[i] = this.#nodes[child];
      i = child;
    }
    this.#keys[i] = key;
    this.#nodes[i] = node;
    return top;
  }

  get bytes(): number {
    return this.#keys.byteLength + this.#nodes.byteLength;
  }
}
