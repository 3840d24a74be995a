import { ResumeClient } from '../../src/contract/realtime-client.ts';

/** What the client knows of each ride it follows: its latest status. */
export type RideStatuses = Map<number, string>;

/**
 * The contract's resume client (the one the apps use), watched: it records every place where
 * numbers jumped with nothing said (a silent gap: what the server must never do) and every time it
 * was told instead (a close with 1013 or a `resync`). On `resync`, and after a 1013 close, it
 * re-reads its rides over REST.
 */
export class WatchingClient {
  readonly rides: RideStatuses = new Map();
  /** Where numbers jumped with neither a `resync` nor a close before them. */
  readonly silentGaps: string[] = [];
  /** Close codes and `resync`s, in order. */
  readonly told: Array<number | 'resync'> = [];
  readonly #channel: ResumeClient;
  #rereads: Array<Promise<void>> = [];

  constructor(url: string, token: string, reread: () => Promise<Array<{ id: number; status: string }>>) {
    this.#channel = new ResumeClient(
      // A test waits for the client: it reconnects after 200 ms (at once after 1001).
      { url, token: async () => token, renew: () => Promise.reject(new Error('a test token is not renewed')), backoffMs: [200] },
      {
        message: (message) => {
          if (message.type === 'ride.updated') this.rides.set(message.data.id, message.data.status);
        },
        resync: (reason) => {
          if (reason === 'start') return;
          if (reason === 'resync') this.told.push('resync');
          this.#rereads.push(
            reread().then((rides) => {
              for (const ride of rides) this.rides.set(ride.id, ride.status);
            }),
          );
        },
        closed: (code) => this.told.push(code),
        gap: (expected, got) => this.silentGaps.push(`expected ${expected}, got ${got} with nothing said`),
      },
    );
  }

  /** Connects, and resolves once the first `ready` came. */
  start(): Promise<void> {
    return this.#channel.ready();
  }

  /** Whether a connection is open and ready now. */
  get live(): boolean {
    return this.#channel.live;
  }

  /** Waits until `condition` holds (checked every 20 ms), failing after `timeoutMs`. */
  async until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; told ${JSON.stringify(this.told)}, rides ${JSON.stringify([...this.rides])}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    this.#channel.stop();
    await Promise.all(this.#rereads);
  }
}
