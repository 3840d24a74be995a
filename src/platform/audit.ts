import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/transaction.ts';
import { authUser } from './auth/authenticate.ts';
import type { AuthUser } from './auth/roles.ts';
import { clientRequestId } from './http.ts';

/**
 * Who acts, and through which request: what an audit entry records of a change's author. The
 * request id is ours; the id the client sent (X-Request-Id) is its own label, kept apart, since a
 * client may send any.
 */
export interface Actor extends AuthUser {
  requestId: string;
  clientRequestId: string | null;
}

/** The caller of a protected route as the author of what it changes. */
export function actorOf(request: FastifyRequest): Actor {
  const { id, role } = authUser(request);
  return { id, role, requestId: request.id, clientRequestId: clientRequestId(request) };
}

/** An operator's change: recorded inside the transaction that makes it, so neither exists without the other. */
export interface AuditChange {
  actor: Actor;
  /** A verb of the form `<thing>.<verb>`: `user.create`, `user.block`, `pricing.update`, … */
  action: string;
  target: { type: string; id: string | number };
  before?: unknown;
  after?: unknown;
}

/**
 * Where operators' changes are recorded (the admin module's audit trail). Services whose actions
 * an operator may take record them themselves, whichever route the action came by.
 */
export interface AuditLog {
  record(tx: Tx, change: AuditChange): Promise<void>;
}
