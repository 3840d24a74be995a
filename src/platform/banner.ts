import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';

/**
 * What a newcomer (or an operator reading the log) needs to know once the service listens: which
 * version, where its data lives, whether it shares state through Redis, where mail goes, whether
 * payments work, where to point a browser (the API's docs and, when served, the web apps), and what
 * is still to do before the apps work end to end. Built from the config, with every password, user
 * name and secret left out: only hosts, ports, paths and database names.
 */
export interface StartupSummary {
  version: string;
  database: string;
  sharedState: string;
  mail: string;
  payments: string;
  urls: { api: string; docs: string; openapi: string; apps?: { rider: string; driver: string; operator: string } };
  /** What to do next, in words for a person; empty once everything is set up. */
  next: string[];
}

/** What the configuration alone cannot tell. */
export interface StartupFacts {
  /** Whether an ADMIN account exists to sign in to the console with. */
  hasOperator: boolean;
}

export function startupSummary(config: Config, address: AddressInfo, version: string, facts: StartupFacts): StartupSummary {
  const api = `http://${displayHost(address)}:${address.port}`;
  const { keyId, keySecret, webhookSecret } = config.razorpay;
  const payments = Boolean(keyId && keySecret);
  const consoleUrl = config.webApps.enabled ? `${api}/app/ops` : undefined;
  const next: string[] = [];
  if (!facts.hasOperator) {
    next.push(
      `No operator account yet: npm run create-admin -- --email you@example.com --password '…' (with this service's DATABASE_URL)` +
        (consoleUrl ? `, then sign in at ${consoleUrl}` : ''),
    );
  }
  if (!payments) next.push('Online payments are off: npm run dev starts the service together with a local payment provider stand-in');
  if (!config.smtpUrl) next.push('Sign-up codes are written to this log (no SMTP_URL)');
  return {
    version,
    database:
      config.database.kind === 'sqlite'
        ? `SQLite ${config.database.file === ':memory:' ? 'in memory' : config.database.file}`
        : `PostgreSQL ${withoutCredentials(config.database.url)}`,
    sharedState: config.redisUrl ? `Redis ${withoutCredentials(config.redisUrl)} (prefix ${config.redisKeyPrefix})` : 'in-process (single instance)',
    mail: config.smtpUrl ? `SMTP ${withoutCredentials(config.smtpUrl)}` : 'written to the log (no SMTP_URL)',
    payments: payments ? `Razorpay configured${webhookSecret ? ', webhook on' : ', webhook off (no RAZORPAY_WEBHOOK_SECRET)'}` : 'not configured (payment orders answer 503)',
    urls: {
      api,
      docs: `${api}/docs`,
      openapi: `${api}/openapi.json`,
      ...(config.webApps.enabled ? { apps: { rider: `${api}/app/`, driver: `${api}/app/driver`, operator: `${api}/app/ops` } } : {}),
    },
    next,
  };
}

/** The same for a person at a terminal: one short line per fact, then what to do next. */
export function humanBanner(summary: StartupSummary): string {
  const rows: Array<[string, string]> = [
    ['API', `${summary.urls.api}  (docs ${summary.urls.docs})`],
    ...(summary.urls.apps
      ? ([
          ['Rider app', summary.urls.apps.rider],
          ['Driver app', summary.urls.apps.driver],
          ['Console', summary.urls.apps.operator],
        ] as Array<[string, string]>)
      : []),
    ['Database', summary.database],
    ['Shared state', summary.sharedState],
    ['Mail', summary.mail],
    ['Payments', summary.payments],
  ];
  const lines = [`Ride-hailing API ${summary.version} is ready`, ...rows.map(([label, value]) => `  ${label.padEnd(13)}${value}`)];
  if (summary.next.length > 0) lines.push('Next:', ...summary.next.map((step) => `  - ${step}`));
  return lines.join('\n');
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
