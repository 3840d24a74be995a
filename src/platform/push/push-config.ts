import { createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { ConfigError, keptBesideDatabase, type DatabaseConfig } from '../../config-values.ts';

/**
 * The push services the browsers of today subscribe with (Chrome and Android, Firefox, Safari, Edge):
 * a subscription must point at one of them, so the service never posts to an address a user made up.
 * A name starting with a dot admits its subdomains.
 */
export const PUSH_SERVICE_HOSTS = 'fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,.notify.windows.com';

export interface PushConfig {
  /** The VAPID key pair (P-256), base64url: the public key is what browsers subscribe with. */
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Hosts subscriptions may point at (a leading dot: any subdomain), or '*' for any https host. */
  serviceHosts: readonly string[] | '*';
  /** PUSH_ALLOW_LOCAL_HTTP: http:// endpoints on this machine are admitted too (local push service stand-ins, tests). */
  allowLocalHttp: boolean;
}

export interface PushEnv {
  privateKey: string | undefined;
  subject: string | undefined;
  mailFrom: string;
  serviceHosts: string;
  allowLocalHttp: boolean;
}

/**
 * The VAPID key is kept like the receipt key: given (VAPID_PRIVATE_KEY), or in embedded mode generated
 * once into `data/vapid-key`; with PostgreSQL and none given, every instance derives the same one from
 * their shared JWT_SECRET (HKDF, its own label). A subscription is bound to the public key it was made
 * with, so changing the key ends every subscription: browsers subscribe again when the apps next open.
 */
export function pushConfig(env: PushEnv, database: DatabaseConfig, jwtSecret: string): PushConfig {
  const privateKey = env.privateKey
    ?? (database.kind === 'postgres'
      ? Buffer.from(hkdfSync('sha256', jwtSecret, 'ride-hailing', 'vapid-key', 32)).toString('base64url')
      : keptBesideDatabase(database.file, 'vapid-key', () => newVapidPrivateKey()));
  let publicKey: string;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    publicKey = ecdh.getPublicKey().toString('base64url');
  } catch {
    throw new ConfigError('Invalid configuration: VAPID_PRIVATE_KEY is not a P-256 private key (32 bytes, base64url; docs/push.md says how to make one)');
  }
  const hosts = env.serviceHosts.trim();
  return {
    vapid: { publicKey, privateKey, subject: env.subject ?? `mailto:${addressOf(env.mailFrom)}` },
    serviceHosts: hosts === '*' ? '*' : hosts.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean),
    allowLocalHttp: env.allowLocalHttp,
  };
}

/** A P-256 private key's 32 bytes, base64url (what VAPID_PRIVATE_KEY holds). */
export function newVapidPrivateKey(): string {
  for (;;) {
    const key = randomBytes(32);
    try {
      createECDH('prime256v1').setPrivateKey(key);
      return key.toString('base64url');
    } catch {
      // One draw in 2^32 is not below the curve's order; draw again.
    }
  }
}

/** `Ride Hailing <no-reply@example.com>` → `no-reply@example.com`. */
function addressOf(from: string): string {
  const match = /<([^>]+)>/.exec(from);
  return (match ? match[1] : from).trim();
}
