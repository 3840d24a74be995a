import { Type, type Static } from 'typebox';
import { MAX_ID } from '../db/database.ts';

export const DEFAULT_PAGE_SIZE = 50;

/** List endpoints that answer a bare array carry the next page's cursor in this header. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
export const PagedHeaders = Type.Object({ [NEXT_CURSOR_HEADER]: Type.Optional(Type.String({ description: 'Pass as `cursor` for the next page' })) });
export const MAX_PAGE_SIZE = 200;

/** `limit` and `cursor` of list endpoints; the cursor is the `nextCursor` of the previous page. */
export const PageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'nextCursor of the previous page' })),
});
export type PageQuery = Static<typeof PageQuery>;

export interface Page {
  limit: number;
  /** Only rows with an id below this one. */
  beforeId: number | undefined;
}

// A cursor past the largest possible id simply means "from the newest".
export function toPage(query: PageQuery): Page {
  const beforeId = query.cursor ? Number(query.cursor) : undefined;
  return { limit: query.limit, beforeId: beforeId !== undefined && beforeId <= MAX_ID ? beforeId : undefined };
}

/** Lists are newest first by id. Repositories fetch `limit + 1` rows; the extra one proves a next page. */
export function takePage<T extends { id: number }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  return { items, nextCursor: String(items[items.length - 1].id) };
}
