// Idempotency keys as clients use them (docs/operations.md): one key per thing the user meant to
// do, so a request sent again after its answer was lost (a timeout, a 502, a dropped connection)
// is answered with the first one's result instead of acting twice.

/** A new key: 32 random hex digits. getRandomValues, unlike randomUUID, also works on plain http. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Wraps a request that takes a key: the same body sent again (after a failure) reuses the key of
 * the last attempt; another body, or the next request after a success, gets a new one.
 */
export function oneKeyPerIntent<B, R>(send: (body: B, idempotencyKey: string) => Promise<R>): (body: B) => Promise<R> {
  let last: { json: string; key: string } | undefined;
  return async (body) => {
    const json = JSON.stringify(body);
    if (last?.json !== json) last = { json, key: newIdempotencyKey() };
    const result = await send(body, last.key);
    last = undefined;
    return result;
  };
}
