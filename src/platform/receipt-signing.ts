import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';

// Receipts anyone can check (decisions.md "Fare policy"): the service signs a receipt's canonical
// JSON with its Ed25519 key, as a detached compact JWS (RFC 7515 appendix F), and publishes the
// public key as a JWK set. Any JOSE library verifies one: put base64url(canonical JSON) between the
// two dots and verify the compact JWS with the key the header's `kid` names.

/** A public key as `/.well-known/receipt-keys` lists it (RFC 8037 OKP JWK; `kid` is its RFC 7638 thumbprint). */
export const ReceiptKey = Type.Object({
  kty: Type.Literal('OKP'),
  crv: Type.Literal('Ed25519'),
  x: Type.String({ description: 'The public key, base64url' }),
  kid: Type.String({ description: "The key's RFC 7638 thumbprint: the `kid` in a receipt signature's header" }),
  alg: Type.Literal('EdDSA'),
  use: Type.Literal('sig'),
});
export type ReceiptKey = Static<typeof ReceiptKey>;

export const ReceiptKeySet = Type.Object({ keys: Type.Array(ReceiptKey) }, { description: 'The public keys receipts are signed with (a JWK set)' });
export type ReceiptKeySet = Static<typeof ReceiptKeySet>;

// An Ed25519 private key in PKCS #8 is this fixed prefix and the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * JSON with object keys sorted (by UTF-16 code units) and no whitespace: RFC 8785 for what receipts
 * hold (strings, finite numbers, booleans, null, arrays, objects). The same value always gives the
 * same bytes, so a signature over them survives any re-serialisation of the receipt.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

/** The RFC 7638 thumbprint of an Ed25519 public key. */
const thumbprint = (x: string) => createHash('sha256').update(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');

/** The service's receipt key: signs, and says what to publish. Holds the private key; nothing reads it out. */
export class ReceiptSigner {
  readonly #key: KeyObject;
  readonly publicKey: ReceiptKey;

  /** `seed`: the 32-byte Ed25519 seed, base64url (config.receiptSigningKey). */
  constructor(seed: string) {
    const bytes = Buffer.from(seed, 'base64url');
    if (bytes.length !== 32) throw new Error('a receipt signing key is a 32-byte seed');
    this.#key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, bytes]), format: 'der', type: 'pkcs8' });
    const { x } = createPublicKey(this.#key).export({ format: 'jwk' });
    this.publicKey = { kty: 'OKP', crv: 'Ed25519', x: x!, kid: thumbprint(x!), alg: 'EdDSA', use: 'sig' };
  }

  keySet(): ReceiptKeySet {
    return { keys: [this.publicKey] };
  }

  /** A detached compact JWS (`header..signature`) over the payload's canonical JSON. Ed25519 is deterministic: the same payload, the same signature. */
  sign(payload: unknown): string {
    const header = base64url(JSON.stringify({ alg: 'EdDSA', kid: this.publicKey.kid }));
    const input = `${header}.${base64url(canonicalJson(payload))}`;
    return `${header}..${sign(null, Buffer.from(input), this.#key).toString('base64url')}`;
  }
}

export type SignatureCheck = { ok: true; kid: string } | { ok: false; problem: string };

/** Whether `signature` (a detached compact JWS) signs `payload`'s canonical JSON with one of `keys`. */
export function checkSignature(payload: unknown, signature: string, keys: readonly ReceiptKey[]): SignatureCheck {
  const parts = signature.split('.');
  if (parts.length !== 3 || parts[1] !== '') return { ok: false, problem: 'the signature is not a detached compact JWS (header..signature)' };
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as typeof header;
  } catch {
    return { ok: false, problem: "the signature's header is not base64url JSON" };
  }
  if (header.alg !== 'EdDSA') return { ok: false, problem: `the signature's algorithm is ${String(header.alg)}, not EdDSA` };
  const key = keys.find((candidate) => candidate.kid === header.kid);
  if (!key) return { ok: false, problem: `no published key has kid ${String(header.kid)}` };
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  const input = Buffer.from(`${parts[0]}.${base64url(canonicalJson(payload))}`);
  const valid = verify(null, input, publicKey, Buffer.from(parts[2], 'base64url'));
  return valid ? { ok: true, kid: key.kid } : { ok: false, problem: 'the signature does not match the receipt (it was changed, or signed with another key)' };
}

/** `GET /.well-known/receipt-keys`: public, so anyone holding a receipt can check it. */
export async function receiptKeysRoutes(fastify: FastifyInstance, { signer }: { signer: Pick<ReceiptSigner, 'keySet'> }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/.well-known/receipt-keys', {
    config: { public: true },
    schema: { tags: ['receipts'], summary: 'The public keys receipts are signed with, as a JWK set (kid: the key\'s thumbprint)', response: { 200: ReceiptKeySet } },
  }, async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=3600');
    return signer.keySet();
  });
}
