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
  /** Messages of any type a WebSocket may send per second; the rest of that second's are dropped. */
  messagesPerSecond: number;
  /** A WebSocket that sends more than this in one second is flooding: it is closed (4408). */
  floodMessagesPerSecond: number;
  /** Open WebSockets of one user on one instance; a further one closes the user's oldest (4409). */
  connectionsPerUser: number;
  /** The largest message a client may send. */
  maxMessageBytes: number;
}

export const REALTIME_LIMITS: RealtimeLimits = {
  authTimeoutMs: 5_000,
  // Below the 30-60 s idle timeouts of common proxies and load balancers.
  heartbeatMs: 25_000,
  maxUnsentBytes: 1024 * 1024,
  closeGraceMs: 2_000,
  // An app sends a position every few seconds and a ping every 20-30 s: 20 a second is far above
  // what one needs, and low enough that a socket's messages cost the instance next to nothing.
  messagesPerSecond: 20,
  floodMessagesPerSecond: 100,
  // A phone, a laptop and a few tabs, with room for connections that died without a close.
  connectionsPerUser: 10,
  maxMessageBytes: 16 * 1024,
};
