import { randomUUID, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { BoundedMap } from '../bounded-map.ts';
import type { Clock } from '../clock.ts';
import { unauthorized } from '../errors.ts';
import { isRole, type AuthUser } from './roles.ts';

export type TokenType = 'access' | 'refresh';

export interface VerifiedToken extends AuthUser {
  jti: string;
  expiresAt: number;
}

// Verified access tokens, so a token's signature is checked once rather than on every request.
const VERIFIED_CACHE_SIZE = 20_000;

/** HS256 JWTs with claims sub, role, typ, jti, iat, exp. Only HS256 is accepted when verifying. */
export class TokenService {
  readonly #key: Promise<webcrypto.CryptoKey>;
  readonly #clock: Clock;
  readonly #verified = new BoundedMap<string, VerifiedToken>(VERIFIED_CACHE_SIZE);
  readonly accessTtlSeconds: number;

  constructor(secret: string, accessTtlSeconds: number, clock: Clock) {
    this.#key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.accessTtlSeconds = accessTtlSeconds;
    this.#clock = clock;
  }

  signAccess(user: AuthUser): Promise<string> {
    const issuedAt = Math.floor(this.#clock.now() / 1000);
    return this.#sign(user, 'access', randomUUID(), issuedAt, issuedAt + this.accessTtlSeconds);
  }

  signRefresh(user: AuthUser, jti: string, expiresAtMs: number): Promise<string> {
    return this.#sign(user, 'refresh', jti, Math.floor(this.#clock.now() / 1000), Math.floor(expiresAtMs / 1000));
  }

  /** An access token already verified and not yet expired, without waiting for anything. */
  knownAccessToken(token: string): VerifiedToken | undefined {
    // Only the exact string that was verified before can hit; its expiry is checked every time.
    const known = this.#verified.get(token);
    return known && known.expiresAt > this.#clock.now() ? known : undefined;
  }

  /** Verifies signature, expiry and type; any failure is a 401. */
  async verify(token: string, type: TokenType): Promise<VerifiedToken> {
    if (type === 'access') {
      const known = this.knownAccessToken(token);
      if (known) return known;
      const verified = await this.#verify(token, type);
      this.#verified.set(token, verified);
      return verified;
    }
    return this.#verify(token, type);
  }

  async #verify(token: string, type: TokenType): Promise<VerifiedToken> {
    const label = type === 'access' ? 'Access token' : 'Refresh token';
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.#clock.now()),
        requiredClaims: ['sub', 'role', 'typ', 'jti', 'iat', 'exp'],
      });
      const id = Number(payload.sub);
      if (payload.typ !== type || !Number.isSafeInteger(id) || !isRole(payload.role) || typeof payload.jti !== 'string') {
        throw unauthorized(`${label} is not valid`, 'INVALID_TOKEN');
      }
      return { id, role: payload.role, jti: payload.jti, expiresAt: payload.exp! * 1000 };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized(`${label} has expired`, 'TOKEN_EXPIRED');
      if (error instanceof errors.JOSEError) throw unauthorized(`${label} is not valid`, 'INVALID_TOKEN');
      throw error;
    }
  }

  async #sign(user: AuthUser, typ: TokenType, jti: string, issuedAt: number, expiresAt: number): Promise<string> {
    return new SignJWT({ role: user.role, typ })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setJti(jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(await this.#key);
  }
}
