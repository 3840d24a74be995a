import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { Db } from '../db/database.ts';
import type { Transactions, Tx } from '../db/transaction.ts';
import { authUser } from './auth/authenticate.ts';
import type { Clock } from './clock.ts';
import { AppError, conflict } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honours an Idempotency-Key header: a retry with the same key and body answers the first success again. */
    idempotent?: boolean;
  }
}

/** How long a key answers its first success. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A request under way this long without an answer died with its instance: a retry with the same body takes the key over. */
const ABANDONED_MS = 60_000;
/** How long a retry waits for the same key's request still under way (another connection, another instance). */
const WAIT_MS = 10_000;
const POLL_MS = 50;
const SWEEP_MS = 3_600_000;

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7e]+$',
      description:
        'Up to 255 printable characters, chosen by the client for this request (a UUID is usual). The same key and body ' +
        'within 24 hours answer the first success again (with Idempotent-Replayed: true) instead of acting twice; the same ' +
        'key with another body is 409 IDEMPOTENCY_KEY_REUSED. Keys are per user, shared by every instance.',
    }),
  ),
});

type Claim = { kind: 'claimed'; at: number } | { kind: 'answered'; statusCode: number; response: string } | { kind: 'under way' } | { kind: 'reused' };

/** The idempotency_keys table: one row per user and key, claimed by the first request and answered when it succeeds. */
export class IdempotencyKeys {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #clock: Clock;

  constructor(deps: { db: Db; transactions: Transactions; clock: Clock }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#clock = deps.clock;
  }

  /**
   * Claims the key for a request (one statement, so of two requests at once exactly one claims it),
   * or says what holds it. An expired key, or one abandoned under way with the same request, is
   * claimed again.
   */
  async claim(userId: number, key: string, requestHash: string): Promise<Claim> {
    const now = this.#clock.now();
    const claimed = await this.#transactions.run((tx) =>
      tx.db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, idempotency_key: key, request_hash: requestHash, status_code: null, response: null, created_at: now })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'idempotency_key'])
            .doUpdateSet({ request_hash: requestHash, status_code: null, response: null, created_at: now })
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.created_at', '<=', now - IDEMPOTENCY_TTL_MS),
                eb.and([eb('idempotency_keys.status_code', 'is', null), eb('idempotency_keys.created_at', '<=', now - ABANDONED_MS), eb('idempotency_keys.request_hash', '=', requestHash)]),
              ]),
            ),
        )
        .returning('user_id')
        .executeTakeFirst(),
    );
    if (claimed) return { kind: 'claimed', at: now };
    const row = await this.#db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status_code', 'response'])
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    // Gone meanwhile: the request under way failed and let the key go; the caller claims it again.
    if (!row) return { kind: 'under way' };
    if (row.request_hash !== requestHash) return { kind: 'reused' };
    if (row.status_code === null || row.response === null) return { kind: 'under way' };
    return { kind: 'answered', statusCode: row.status_code, response: row.response };
  }

  /** Keeps the claimed request's success as the key's answer. */
  async answer(userId: number, key: string, claimedAt: number, statusCode: number, response: string): Promise<void> {
    await this.#transactions.run((tx) =>
      tx.db
        .updateTable('idempotency_keys')
        .set({ status_code: statusCode, response })
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .where('created_at', '=', claimedAt)
        .execute(),
    );
  }

  /** The claimed request failed: nothing was done, so the key is free for a retry. */
  async release(userId: number, key: string, claimedAt: number): Promise<void> {
    await this.#transactions.run((tx) =>
      tx.db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .where('created_at', '=', claimedAt)
        .where('status_code', 'is', null)
        .execute(),
    );
  }

  /** Inside an account's erasure: the answers kept for the person's retries (they hold what they typed) go. */
  async eraseOf(tx: Tx, userId: number): Promise<void> {
    await tx.db.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
  }

  async sweep(): Promise<void> {
    const before = this.#clock.now() - IDEMPOTENCY_TTL_MS;
    await this.#transactions.run((tx) => tx.db.deleteFrom('idempotency_keys').where('created_at', '<=', before).execute());
  }
}

/**
 * Idempotency keys in the style of Stripe's, for routes declaring `config: { idempotent: true }`: the
 * header joins their schema (validated, and in the OpenAPI document), a request with a key claims it
 * after validation, and a success is kept as the key's answer before it is sent. A failure lets the
 * key go: nothing was done, and a retry acts anew.
 */
export const idempotencyKeys = fp<{ keys: IdempotencyKeys }>(async (app: FastifyInstance, { keys }) => {
  const claims = new WeakMap<FastifyRequest, { userId: number; key: string; at: number }>();
  const sweeper = setInterval(() => void keys.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'old idempotency keys not swept')), SWEEP_MS).unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const userId = authUser(request).id;
    const hash = requestHash(request);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const claim = await keys.claim(userId, key, hash);
      if (claim.kind === 'claimed') return void claims.set(request, { userId, key, at: claim.at });
      if (claim.kind === 'reused') throw conflict('This Idempotency-Key was used with another request; use a new key for a new request', 'IDEMPOTENCY_KEY_REUSED');
      if (claim.kind === 'answered') {
        return reply.code(claim.statusCode).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.response);
      }
      if (Date.now() > deadline) {
        throw new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still under way; try again shortly', { retryAfterSeconds: 1 });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const keepAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    try {
      if (reply.statusCode < 300 && typeof payload === 'string') await keys.answer(claim.userId, claim.key, claim.at, reply.statusCode, payload);
      else await keys.release(claim.userId, claim.key, claim.at);
    } catch (error) {
      // The client still gets its answer: failing it now would invite the retry the key is there to absorb.
      request.log.warn({ err: error }, 'idempotency key not updated');
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    if (route.schema?.headers) throw new Error(`${route.url}: an idempotent route's header schema comes from platform/idempotency.ts`);
    route.schema = { ...route.schema, headers: IdempotencyHeaders };
    route.preHandler = [...(route.preHandler ? [route.preHandler].flat() : []), claimKey];
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), keepAnswer];
  });
});

/** The method, route and body, with object keys in order: the same request however its JSON was written. */
function requestHash(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method} ${request.routeOptions.url}\n${canonicalJson(request.body)}`).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
