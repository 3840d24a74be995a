import { randomUUID, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { MAX_ID } from '../../db/database.ts';
import { BoundedMap } from '../bounded-map.ts';
import type { Clock } from '../clock.ts';
import { unauthorized } from '../errors.ts';
import { RevokedTokens } from './revocations.ts';
import { isRole, type AuthUser } from './roles.ts';

export type TokenType = 'access' | 'refresh';

export interface VerifiedToken extends AuthUser {
  jti: string;
  expiresAt: number;
  /** The account's token version when the token was issued (claim `ver`; 0 for tokens without it). */
  version: number;
}

// Verified access tokens, so a token's signature is checked once rather than on every request.
const VERIFIED_CACHE_SIZE = 20_000;
// Compact JWS: three unpadded base64url parts. Decoders forgive padding and stray characters, so a
// token with an extra `=` would otherwise pass as the same token.
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The one reading of a token's subject: a user id written as we write it, a positive decimal
 * integer without sign, spaces, leading zeros, exponent or radix prefix, within the id columns'
 * range. `Number()` read "0x1", "1.0", " 1", "+1" and "01" all as user 1.
 */
export function parseSubject(sub: unknown): number | undefined {
  if (typeof sub !== 'string' || !/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const id = Number(sub);
  return id <= MAX_ID ? id : undefined;
}

/** Whether an account exists (the auth module's accounts). */
export interface AccountCheck {
  exists(id: number): Promise<boolean>;
}

/**
 * HS256 JWTs with claims sub, role, typ, jti, iat, exp and ver (the account's token version).
 * Only HS256 is accepted when verifying, and a token whose version an account change has passed
 * is refused (`revocations`).
 */
export class TokenService {
  readonly #key: Promise<webcrypto.CryptoKey>;
  readonly #clock: Clock;
  readonly #verified = new BoundedMap<string, VerifiedToken>(VERIFIED_CACHE_SIZE);
  #accounts: AccountCheck | undefined;
  readonly accessTtlSeconds: number;
  readonly revocations: RevokedTokens;

  constructor(secret: string, accessTtlSeconds: number, clock: Clock) {
    this.#key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.accessTtlSeconds = accessTtlSeconds;
    this.#clock = clock;
    // A raise matters while an access token issued before it can still be unexpired.
    this.revocations = new RevokedTokens(clock, accessTtlSeconds * 1000 + 60_000);
  }

  /**
   * From now on a token verifies only if its account exists: a token the secret signed for an id no
   * account has (a database started afresh under the same secret, a forged subject) is a 401, never
   * a request that fails deeper down. Checked once per token, when its signature is.
   */
  requireAccounts(accounts: AccountCheck): void {
    this.#accounts = accounts;
  }

  signAccess(user: AuthUser, version = 0): Promise<string> {
    const issuedAt = Math.floor(this.#clock.now() / 1000);
    return this.#sign(user, 'access', randomUUID(), issuedAt, issuedAt + this.accessTtlSeconds, version);
  }

  signRefresh(user: AuthUser, jti: string, expiresAtMs: number, version = 0): Promise<string> {
    return this.#sign(user, 'refresh', jti, Math.floor(this.#clock.now() / 1000), Math.floor(expiresAtMs / 1000), version);
  }

  /**
   * Hears every user whose earlier tokens end on this instance (role or password change, block,
   * erasure, wherever it happened), so live connections opened with them can be closed.
   */
  onRevoked(listener: (userId: number) => void): () => void {
    return this.revocations.onRevoked(listener);
  }

  /** An access token already verified, not expired and not revoked, without waiting for anything. */
  knownAccessToken(token: string): VerifiedToken | undefined {
    // Only the exact string that was verified before can hit; expiry and revocation are checked every time.
    const known = this.#verified.get(token);
    return known && known.expiresAt > this.#clock.now() && this.revocations.accepts(known.id, known.version) ? known : undefined;
  }

  /** Verifies shape, signature, expiry, type and that no account change has ended it; any failure is a 401. */
  async verify(token: string, type: TokenType): Promise<VerifiedToken> {
    const label = type === 'access' ? 'Access token' : 'Refresh token';
    let verified: VerifiedToken;
    if (type === 'access') {
      const cached = this.#verified.get(token);
      verified = cached && cached.expiresAt > this.#clock.now() ? cached : await this.#verify(token, type);
      this.#verified.set(token, verified);
    } else {
      verified = await this.#verify(token, type);
    }
    if (!this.revocations.accepts(verified.id, verified.version)) {
      throw unauthorized(`${label} was ended by a change to the account; log in again`, 'TOKEN_REVOKED');
    }
    return verified;
  }

  async #verify(token: string, type: TokenType): Promise<VerifiedToken> {
    const label = type === 'access' ? 'Access token' : 'Refresh token';
    if (!JWT_SHAPE.test(token)) throw unauthorized(`${label} is not valid`, 'INVALID_TOKEN');
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.#clock.now()),
        requiredClaims: ['sub', 'role', 'typ', 'jti', 'iat', 'exp'],
      });
      const id = parseSubject(payload.sub);
      const version = payload.ver ?? 0;
      if (payload.typ !== type || id === undefined || !isRole(payload.role) || typeof payload.jti !== 'string' || !Number.isSafeInteger(version)) {
        throw unauthorized(`${label} is not valid`, 'INVALID_TOKEN');
      }
      if (this.#accounts && !(await this.#accounts.exists(id))) throw unauthorized(`${label} is for an account that does not exist`, 'INVALID_TOKEN');
      return { id, role: payload.role, jti: payload.jti, expiresAt: payload.exp! * 1000, version: version as number };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized(`${label} has expired`, 'TOKEN_EXPIRED');
      if (error instanceof errors.JOSEError) throw unauthorized(`${label} is not valid`, 'INVALID_TOKEN');
      throw error;
    }
  }

  async #sign(user: AuthUser, typ: TokenType, jti: string, issuedAt: number, expiresAt: number, version: number): Promise<string> {
    return new SignJWT({ role: user.role, typ, ver: version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setJti(jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(await this.#key);
  }
}
