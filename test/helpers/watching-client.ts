import WebSocket from 'ws';

/** What the client knows of each ride it follows: its latest status. */
export type RideStatuses = Map<number, string>;

/**
 * A realtime client written from docs/realtime.md: it reconnects after every close (at once after
 * 1001, after a short pause otherwise) and resumes after the last `seq` it handled; on `resync` it
 * re-reads its rides over REST and carries on after the resync's `seq`. It records every place where
 * numbers jumped with nothing said (a silent gap: what the server must never do) and every time it
 * was told instead (a close with 1013 or a `resync`).
 */
export class WatchingClient {
  readonly rides: RideStatuses = new Map();
  /** Where numbers jumped with neither a `resync` nor a close before them. */
  readonly silentGaps: string[] = [];
  /** Close codes and `resync`s, in order. */
  readonly told: Array<number | 'resync'> = [];
  readonly #url: string;
  readonly #token: string;
  readonly #reread: () => Promise<Array<{ id: number; status: string }>>;
  #lastSeq: number | undefined;
  #expected: number | undefined;
  #socket: WebSocket | undefined;
  #stopped = false;
  #ready = false;
  #rereads: Array<Promise<void>> = [];

  constructor(url: string, token: string, reread: () => Promise<Array<{ id: number; status: string }>>) {
    this.#url = url;
    this.#token = token;
    this.#reread = reread;
  }

  /** Connects, and resolves once the first `ready` came. */
  async start(): Promise<void> {
    this.#connect();
    await this.until(() => this.#ready, 'the first ready');
  }

  /** Whether a connection is open and ready now. */
  get live(): boolean {
    return this.#ready;
  }

  #connect(): void {
    if (this.#stopped) return;
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: this.#token, ...(this.#lastSeq === undefined ? {} : { resumeAfter: this.#lastSeq }) })));
    socket.on('message', (data: Buffer) => this.#receive(JSON.parse(data.toString('utf8'))));
    socket.on('error', () => {
      // A refused connection is followed by close, which reconnects.
    });
    socket.on('close', (code) => {
      this.#ready = false;
      this.told.push(code);
      if (!this.#stopped) setTimeout(() => this.#connect(), code === 1001 ? 0 : 200);
    });
  }

  #receive(message: { type: string; seq?: number; data?: { id?: number; status?: string } }): void {
    if (message.type === 'ready') {
      this.#lastSeq ??= message.seq;
      this.#expected = this.#lastSeq! + 1;
      this.#ready = true;
      return;
    }
    if (message.type === 'resync') {
      this.told.push('resync');
      this.#lastSeq = message.seq;
      this.#expected = message.seq! + 1;
      this.#rereads.push(
        this.#reread().then((rides) => {
          for (const ride of rides) this.rides.set(ride.id, ride.status);
        }),
      );
      return;
    }
    if (message.seq === undefined) return;
    // Already handled (a replay overlapping what came live): dropped, as the docs say.
    if (message.seq < this.#expected!) return;
    if (message.seq > this.#expected!) this.silentGaps.push(`expected ${this.#expected}, got ${message.seq} (${message.type}) with nothing said`);
    this.#lastSeq = message.seq;
    this.#expected = message.seq + 1;
    if (message.type === 'ride.updated' && message.data?.id !== undefined) this.rides.set(message.data.id, message.data.status!);
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
    this.#stopped = true;
    const socket = this.#socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.close();
      await closed;
    }
    await Promise.all(this.#rereads);
  }
}
