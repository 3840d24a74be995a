/** What bounds a live connection (docs/realtime.md "Limits"); tests shrink them to see them act. */
export interface RealtimeLimits {
  /** A WebSocket's first message, `auth`, must arrive within this time. */
  authTimeoutMs: number;
  /** Connections are pinged this often (SSE: sent a comment); one that did not answer the last ping is dropped. */
  heartbeatMs: number;
  /** Bytes a connection may hold unsent before its client counts as one that does not read. */
  maxUnsentBytes: number;
  /** After the server closes a connection, how long its client has to read the close frame before the socket is cut. */
  closeGraceMs: number;
  /** Driver positions a WebSocket may send per second; more are refused. */
  positionsPerSecond: number;
  /** The largest message a client may send. */
  maxMessageBytes: number;
}

export const REALTIME_LIMITS: RealtimeLimits = {
  authTimeoutMs: 5_000,
  // Below the 30-60 s idle timeouts of common proxies and load balancers.
  heartbeatMs: 25_000,
  maxUnsentBytes: 1024 * 1024,
  closeGraceMs: 2_000,
  positionsPerSecond: 5,
  maxMessageBytes: 16 * 1024,
};
