import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';

/**
 * What a newcomer (or an operator reading the log) needs to know once the service listens: which
 * version, where its data lives, whether it shares state through Redis, where mail goes, whether
 * payments work, and where to point a browser (the API's docs and, when served, the web apps). Built from the config, with every password, user
 * name and secret left out: only hosts, ports, paths and database names.
 */
export interface StartupSummary {
  version: string;
  database: string;
  sharedState: string;
  mail: string;
  payments: string;
  urls: { api: string; docs: string; openapi: string; apps?: { rider: string; driver: string; operator: string } };
}

export function startupSummary(config: Config, address: AddressInfo, version: string): StartupSummary {
  const api = `http://${displayHost(address)}:${address.port}`;
  const { keyId, keySecret, webhookSecret } = config.razorpay;
  return {
    version,
    database:
      config.database.kind === 'sqlite'
        ? `SQLite ${config.database.file === ':memory:' ? 'in memory' : config.database.file}`
        : `PostgreSQL ${withoutCredentials(config.database.url)}`,
    sharedState: config.redisUrl ? `Redis ${withoutCredentials(config.redisUrl)} (prefix ${config.redisKeyPrefix})` : 'in-process (single instance)',
    mail: config.smtpUrl ? `SMTP ${withoutCredentials(config.smtpUrl)}` : 'written to the log (no SMTP_URL)',
    payments: keyId && keySecret ? `Razorpay configured${webhookSecret ? ', webhook on' : ', webhook off (no RAZORPAY_WEBHOOK_SECRET)'}` : 'not configured (payment orders answer 503)',
    urls: {
      api,
      docs: `${api}/docs`,
      openapi: `${api}/openapi.json`,
      ...(config.webApps.enabled ? { apps: { rider: `${api}/app/`, driver: `${api}/app/driver`, operator: `${api}/app/ops` } } : {}),
    },
  };
}

/** The same in one line for a person at a terminal. */
export function humanBanner(summary: StartupSummary): string {
  return (
    `Ride-hailing API ${summary.version} at ${summary.urls.api} (docs ${summary.urls.docs}) · database: ${summary.database} · ` +
    `shared state: ${summary.sharedState} · mail: ${summary.mail} · payments: ${summary.payments}` +
    (summary.urls.apps ? ` · apps: rider ${summary.urls.apps.rider}, driver ${summary.urls.apps.driver}, operators ${summary.urls.apps.operator}` : '')
  );
}

// A wildcard listen address is not something to type into a browser.
function displayHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return family === 'IPv6' ? `[${address}]` : address;
}

/** scheme://host:port/path of a connection URL: never its user, password or query (which may hold options). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
