/**
 * What happens to a client's message: handled, refused with an error (the first one over the
 * budget in a second, so the client learns why), dropped unread, or the sign of a flood.
 */
export type Verdict = 'handle' | 'refuse' | 'drop' | 'flood';

/**
 * One budget per connection for every message a client sends, whatever its type (unknown and
 * unreadable ones, WebSocket pings and the auth message included): at most `perSecond` are handled
 * in a second of the clock, the rest of that second's are not even parsed, and more than `floodAt`
 * in one second is a flood. Checked before each frame is parsed, so it is two numbers and no allocation.
 */
export class MessageBudget {
  readonly #perSecond: number;
  readonly #floodAt: number;
  #second = -1;
  #count = 0;

  constructor(perSecond: number, floodAt: number) {
    this.#perSecond = perSecond;
    this.#floodAt = floodAt;
  }

  take(now: number): Verdict {
    const second = Math.floor(now / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#count = 0;
    }
    const count = ++this.#count;
    if (count <= this.#perSecond) return 'handle';
    if (count > this.#floodAt) return 'flood';
    return count === this.#perSecond + 1 ? 'refuse' : 'drop';
  }
}
