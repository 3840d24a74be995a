import { useEffect, useState } from 'preact/hooks';

/** The screen the address names (`#/history` → `/history`); hash routes need nothing from the server. */
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
