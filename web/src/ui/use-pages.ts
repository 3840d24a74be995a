import { useEffect, useRef, useState } from 'preact/hooks';
import type { Paged } from '../api/client.ts';
import { useAction, type Action } from './use-action.ts';

export interface Pages<T> {
  /** null until the first page is read. */
  items: T[] | null;
  /** The next page's cursor, null on the last page. */
  cursor: string | null;
  /** Reads from the newest (no cursor) or appends the page at `cursor`. */
  load: Action<[cursor?: string]>;
  /** Shows an item as an action's answer returned it, or drops it from the list (null). */
  replace: (matches: (item: T) => boolean, next: T | null) => void;
}

/** A list the API answers a page at a time, newest first; read again from the start whenever `key` (its filters) changes. */
export function usePages<T>(read: (cursor: string | undefined) => Promise<Paged<T>>, key: string): Pages<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const latest = useRef(read);
  latest.current = read;
  const load = useAction(async (from?: string) => {
    const page = await latest.current(from);
    setItems((list) => (from && list ? [...list, ...page.items] : page.items));
    setCursor(page.nextCursor);
  });
  useEffect(() => void load.run(), [key]);
  return {
    items,
    cursor,
    load,
    replace: (matches, next) => setItems((list) => list && (next ? list.map((item) => (matches(item) ? next : item)) : list.filter((item) => !matches(item)))),
  };
}
