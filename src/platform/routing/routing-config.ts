import { resolve } from 'node:path';

/** ROUTING, parsed: which provider answers routes, and where its data is. */
export type RoutingConfig = { provider: 'straight' } | { provider: 'graph'; file: string } | { provider: 'osrm'; url: string };

/**
 * `straight`, `graph:<file>` (a graph made by `npm run import-roads`) or `osrm:<http(s) URL of an OSRM
 * server>`; anything else throws a message naming ROUTING (config.ts turns it into a ConfigError).
 */
export function parseRouting(value: string): RoutingConfig {
  const text = value.trim();
  if (text === 'straight') return { provider: 'straight' };
  if (text.startsWith('graph:')) {
    const file = text.slice('graph:'.length).trim();
    if (!file) throw new Error('ROUTING graph: needs the file that npm run import-roads wrote (graph:./roads.bin)');
    return { provider: 'graph', file: resolve(file) };
  }
  if (text.startsWith('osrm:')) {
    const url = text.slice('osrm:'.length).trim().replace(/\/+$/, '');
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.search || parsed.hash) {
      throw new Error(`ROUTING osrm: needs the http(s) address of an OSRM server (osrm:http://localhost:5000), not "${url}"`);
    }
    return { provider: 'osrm', url };
  }
  throw new Error(`ROUTING "${text}" is not straight, graph:<file> or osrm:<url>`);
}
