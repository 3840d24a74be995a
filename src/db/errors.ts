/** True when a statement broke a unique constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === '23505') return true; // PostgreSQL unique_violation
  // node:sqlite: SQLITE_CONSTRAINT_UNIQUE (2067) or SQLITE_CONSTRAINT_PRIMARYKEY (1555)
  if (errcode === 2067 || errcode === 1555) return true;
  return typeof message === 'string' && message.startsWith('UNIQUE constraint failed');
}

// Connection-level failures: the database is down or restarting, not the request at fault.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

/** True when PostgreSQL could not be reached or dropped the connection. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && (message.includes('Connection terminated') || message.includes('timeout exceeded when trying to connect'));
}
