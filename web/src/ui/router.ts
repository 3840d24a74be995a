import { useEffect, useState } from 'preact/hooks';

// Hash routes (`#/rides/12`): they need nothing from the server, which serves each app from one
// page, and old links and bookmarks keep working. preact-iso's router routes by path instead, which
// would need the server to answer every screen's path with the app's page.

/** The screen the address names (`#/history` → `/history`). */
export function useRoute(): string {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

function current(): string {
  return location.hash.replace(/^#/, '') || '/';
}

export function go(route: string): void {
  location.hash = route;
}

export interface Match {
  /** The pattern that matched, e.g. `/rides/:id`. */
  pattern: string;
  /** Its `:name` segments, e.g. `{ id: '12' }`. */
  params: Record<string, string>;
}

/**
 * The first pattern the route matches (`/rides/:id` matches `/rides/12`; a `:name` segment matches
 * any one non-empty segment), or the first pattern, the app's home, for a route it does not know.
 */
export function matchRoute(patterns: readonly [string, ...string[]], route: string): Match {
  const asked = route.split('/');
  for (const pattern of patterns) {
    const parts = pattern.split('/');
    if (parts.length !== asked.length) continue;
    const params: Record<string, string> = {};
    const fits = parts.every((part, index) => {
      if (!part.startsWith(':')) return part === asked[index];
      params[part.slice(1)] = decodeURIComponent(asked[index]);
      return asked[index] !== '';
    });
    if (fits) return { pattern, params };
  }
  return { pattern: patterns[0], params: {} };
}
