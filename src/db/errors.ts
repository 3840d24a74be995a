/** True when a statement broke a unique constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === '23505') return true; // PostgreSQL unique_violation
  // node:sqlite: SQLITE_CONSTRAINT_UNIQUE (2067) or SQLITE_CONSTRAINT_PRIMARYKEY (1555)
  if (errcode === 2067 || errcode === 1555) return true;
  return typeof message === 'string' && message.startsWith('UNIQUE constraint failed');
}

// A new connection was refused: nothing of the request reached the database, so it may simply be tried
// again. 53300 too_many_connections is PostgreSQL at max_connections (or a role at its CONNECTION LIMIT),
// which several instances' pools growing at once under load can reach; 57P03 is a database starting up.
const REFUSED_CODES = new Set(['ECONNREFUSED', '53300', '57P03']);
// Connection-level failures: the database is down, restarting or full, not the request at fault.
const UNAVAILABLE_CODES = new Set([...REFUSED_CODES, 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '08000', '08001', '08003', '08006']);

/** True when PostgreSQL could not be reached, refused a new connection, or dropped one. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (isConnectionRefused(error)) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && message.includes('Connection terminated');
}

/** True when no connection could be had (refused, or the pool waited too long): the statement never ran. */
export function isConnectionRefused(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && REFUSED_CODES.has(code)) return true;
  return typeof message === 'string' && message.includes('timeout exceeded when trying to connect');
}
