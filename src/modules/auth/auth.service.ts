import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db, WriteDb } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from '../../platform/auth/passwords.ts';
import { isRole, type AuthUser, type Role } from '../../platform/auth/roles.ts';
import type { TokenService } from '../../platform/auth/tokens.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized, unavailable } from '../../platform/errors.ts';
import type { Language, Texts } from '../../platform/i18n/texts.ts';
import type { Mailer } from '../../platform/mail.ts';
import { AccountLifecycle, type LifecycleDependencies } from './account-lifecycle.ts';
import * as repository from './auth.repository.ts';
import type { LoginBody, SignupBody, TokenResponse } from './auth.schemas.ts';
import { endTokens } from './token-revocations.ts';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_TRIES = 5;

export interface AuthSettings {
  refreshTokenTtlSeconds: number;
  otpResendCooldownSeconds: number;
  refreshReuseGraceSeconds: number;
  adminEmails: ReadonlySet<string>;
  /** Keys the stored OTP hashes, so a leaked table does not give the codes away. */
  otpKey: string;
}

/** The settings of the auth service from the configuration (the service and the operator CLI build it alike). */
export function authSettings(config: Config): AuthSettings {
  return {
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    otpResendCooldownSeconds: config.otpResendCooldownSeconds,
    refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
    adminEmails: config.adminEmails,
    otpKey: createHmac('sha256', config.jwtSecret).update('signup-otp').digest('hex'),
  };
}

export interface UserSummary {
  id: number;
  name: string;
  email: string;
  role: Role;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw badRequest('email must be a valid e-mail address');
  return email;
}

/** The requested role when the account holds it (USER and RIDER are both riders), else the stored role. */
export function resolveLoginRole(stored: Role, requested: unknown): Role {
  if (!isRole(requested)) return stored;
  if (requested === stored) return requested;
  const riders: readonly Role[] = ['USER', 'RIDER'];
  return riders.includes(stored) && riders.includes(requested) ? requested : stored;
}

export class AuthService {
  /** Blocking, unblocking, erasing and listing accounts (operators' work). */
  readonly accounts: AccountLifecycle;
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #tokens: TokenService;
  readonly #mailer: Mailer;
  readonly #texts: Texts;
  readonly #clock: Clock;
  readonly #settings: AuthSettings;

  constructor(storage: { db: Db; transactions: Transactions; texts: Texts } & Pick<LifecycleDependencies, 'events'>, tokens: TokenService, mailer: Mailer, clock: Clock, settings: AuthSettings) {
    this.#db = storage.db;
    this.#transactions = storage.transactions;
    this.#texts = storage.texts;
    this.#tokens = tokens;
    this.#mailer = mailer;
    this.#clock = clock;
    this.#settings = settings;
    this.accounts = new AccountLifecycle({ db: storage.db, revoked: tokens.revocations, clock, events: storage.events });
  }

  async requestSignupOtp(name: string, rawEmail: string, browserLanguage: Language): Promise<{ message: string; emailSent: boolean; expiresAt: string }> {
    const email = normalizeEmail(rawEmail);
    const now = this.#clock.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = this.#hashOtp(email, code);
    const cooldownMs = this.#settings.otpResendCooldownSeconds * 1000;
    const saved = await this.#transactions.run((tx) =>
      repository.saveOtpUnlessCoolingDown(tx.db, { email, code_hash: codeHash, expires_at: now + OTP_TTL_MS, attempts: 0, sent_at: now }, now - cooldownMs),
    );
    if (!saved) {
      const previous = await repository.findOtp(this.#db, email);
      const waitMs = (previous?.sent_at ?? now) + cooldownMs - now;
      throw tooManyRequests('A code was sent to this e-mail moments ago; wait before asking again', waitMs / 1000, 'OTP_COOLDOWN');
    }

    let emailSent: boolean;
    try {
      const say = this.#texts.in(browserLanguage); // no account yet, so no language setting: the browser's
      emailSent = await this.#mailer.send({ to: email, subject: say('mail.signupCode.subject'), text: say('mail.signupCode.text', { name: name.trim(), code }) });
    } catch (error) {
      // Nobody received the code: drop it so the user can ask again at once.
      await this.#transactions.run((tx) => repository.deleteOtp(tx.db, email, codeHash));
      throw unavailable('The e-mail could not be sent; try again shortly', 'MAIL_UNAVAILABLE', error);
    }
    return {
      message: emailSent ? 'A sign-up code was sent to your e-mail.' : 'SMTP is not configured; the sign-up code was written to the server log.',
      emailSent,
      expiresAt: toIso(now + OTP_TTL_MS),
    };
  }

  /** Creates the account, or updates name, password and role of an existing one, once the e-mail code checks out. */
  async signup(body: SignupBody): Promise<{ message: string }> {
    const email = normalizeEmail(body.email);
    const role = body.role ?? 'USER';
    if (role === 'ADMIN' && !this.#settings.adminEmails.has(email)) {
      throw forbidden(
        'This e-mail may not sign up as ADMIN: only e-mails listed in the service\'s ADMIN_EMAILS may. ' +
          'On the service\'s machine, `npm run create-admin -- --email you@example.com --password \'…\'` makes an operator account directly.',
        'ADMIN_NOT_ALLOWED',
      );
    }
    const codeHash = await this.#checkOtp(email, body.otp);
    const passwordHash = await hashPassword(body.password);

    const now = this.#clock.now();
    const existed = await this.#transactions.run(async (tx) => {
      if (!(await repository.consumeOtp(tx.db, email, codeHash))) {
        throw badRequest('This sign-up code was already used; request a new one', 'OTP_INVALID');
      }
      const existing = await repository.findUserByEmail(tx.db, email);
      const id = await repository.upsertUser(tx.db, { email, name: body.name.trim(), password_hash: passwordHash, role }, now);
      // Signing up again changes nothing of a blocked account, least of all its status.
      if (id === undefined) throw accountBlocked();
      // A changed password or role ends every token issued with the old ones, on every instance.
      if (existing) await endTokens(tx, this.#tokens.revocations, id, now);
      return existing !== undefined;
    });
    return { message: existed ? 'Account updated. You can log in now.' : 'Account created. You can log in now.' };
  }

  async login(body: LoginBody): Promise<TokenResponse> {
    const email = normalizeEmail(body.email);
    const user = await repository.findUserByEmail(this.#db, email);
    const passwordOk = await verifyPassword(body.password, user?.password_hash ?? UNUSABLE_HASH);
    if (!user || !passwordOk) throw unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');
    // Only who knows the password learns that the account is blocked.
    if (user.status !== 'active') throw accountBlocked();
    const familyExpiresAt = this.#clock.now() + this.#settings.refreshTokenTtlSeconds * 1000;
    return this.#transactions.run(async (tx) => {
      const current = await this.#demoteIfUnlisted(tx, user);
      return this.#issueTokens(tx.db, { id: user.id, role: resolveLoginRole(current.role as Role, body.role) }, user.name, randomUUID(), familyExpiresAt, current.token_version);
    });
  }

  /**
   * At start: every ADMIN whose role came from ADMIN_EMAILS and whose e-mail is no longer listed
   * becomes a USER, and their tokens end (a change of the list takes a restart, so it holds from then).
   */
  /** Whether the operator console has anyone to sign in (the start-up banner says how to make one). */
  hasOperator(): Promise<boolean> {
    return repository.hasActiveAdmin(this.#db);
  }

  async demoteUnlistedAdmins(): Promise<void> {
    for (const user of await repository.findAdminsBySignup(this.#db)) {
      if (!this.#settings.adminEmails.has(user.email)) await this.#transactions.run((tx) => this.#demoteIfUnlisted(tx, user));
    }
  }

  /**
   * Rotates a refresh token. Presenting one that was already rotated revokes its whole family,
   * unless it was rotated moments ago: an app that refreshes twice in parallel (two 401s after a
   * reload) gets a second pair of the same session instead of being signed out.
   */
  async refresh(refreshToken: string): Promise<TokenResponse> {
    // A refresh token an account change ended is refused here already, when this instance has heard of the change.
    const claims = await this.#tokens.verify(refreshToken, 'refresh');
    const now = this.#clock.now();
    // A refusal is returned, not thrown, so the family revocation commits; it is thrown after.
    const outcome = await this.#transactions.run(async (tx): Promise<TokenResponse | AppError> => {
      const stored = await repository.findRefreshToken(tx.db, claims.jti);
      if (!stored || stored.revoked_at !== null) return unauthorized('Refresh token has been revoked', 'TOKEN_REVOKED');
      if (!(await repository.markRefreshTokenUsed(tx.db, claims.jti, now))) {
        // Read again: a parallel refresh may have rotated it after the first read.
        const usedAt = (await repository.findRefreshToken(tx.db, claims.jti))?.used_at ?? null;
        const graceMs = this.#settings.refreshReuseGraceSeconds * 1000;
        if (usedAt !== null && now - Number(usedAt) <= graceMs) return this.#reissue(tx, stored, claims.version);
        await repository.revokeFamily(tx.db, stored.family_id, now);
        return unauthorized('Refresh token was already used; the session has been revoked', 'TOKEN_REUSED');
      }
      return this.#reissue(tx, stored, claims.version);
    });
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  /** Revokes the session the refresh token belongs to. Logging out twice is fine. */
  async logout(refreshToken: string): Promise<{ message: string }> {
    const claims = await this.#tokens.verify(refreshToken, 'refresh');
    const stored = await repository.findRefreshToken(this.#db, claims.jti);
    if (stored) await this.#transactions.run((tx) => repository.revokeFamily(tx.db, stored.family_id, this.#clock.now()));
    return { message: 'Logged out.' };
  }

  /** An account an operator creates, without an e-mail code; an e-mail already taken is 409. */
  async createAccount(tx: Tx, account: { name: string; email: string; passwordHash: string; role: Role }): Promise<UserSummary> {
    const email = normalizeEmail(account.email);
    const name = account.name.trim();
    const id = await repository.insertUser(tx.db, { email, name, password_hash: account.passwordHash, role: account.role }, this.#clock.now());
    if (id === undefined) throw conflict('An account with this e-mail exists', 'EMAIL_TAKEN');
    return { id, name, email, role: account.role };
  }

  /** Whether an account has this id (an erased one still has it). */
  async exists(id: number): Promise<boolean> {
    return (await repository.findUserById(this.#db, id)) !== undefined;
  }

  async findUser(id: number): Promise<UserSummary | undefined> {
    const user = await repository.findUserById(this.#db, id);
    return user && { id: user.id, name: user.name, email: user.email, role: user.role as Role };
  }

  async findUsers(ids: readonly number[]): Promise<Map<number, UserSummary>> {
    const rows = await repository.findUsersByIds(this.#db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, { ...row, role: row.role as Role }]));
  }

  async #checkOtp(email: string, code: string): Promise<string> {
    const now = this.#clock.now();
    const otp = await repository.findOtp(this.#db, email);
    if (!otp) throw badRequest('No sign-up code was requested for this e-mail; request one first', 'OTP_INVALID');
    if (otp.expires_at <= now) throw badRequest('The sign-up code has expired; request a new one', 'OTP_EXPIRED');
    if (!(await this.#transactions.run((tx) => repository.spendOtpTry(tx.db, email, OTP_MAX_TRIES, now)))) {
      throw badRequest('Too many wrong codes; request a new one', 'OTP_LOCKED');
    }
    const expected = Buffer.from(otp.code_hash, 'hex');
    const actual = Buffer.from(this.#hashOtp(email, code), 'hex');
    if (!timingSafeEqual(expected, actual)) {
      const left = OTP_MAX_TRIES - otp.attempts - 1;
      throw badRequest(left > 0 ? `The sign-up code is wrong; ${left} tries left` : 'The sign-up code is wrong; request a new one', 'OTP_INVALID');
    }
    return otp.code_hash;
  }

  /** A new pair for a session, unless an account change since its login ended it (the database decides, whatever this instance has heard). */
  async #reissue(tx: Tx, stored: repository.RefreshTokenRow, version: number): Promise<TokenResponse | AppError> {
    const found = await repository.findUserById(tx.db, stored.user_id);
    const user = found && (await this.#demoteIfUnlisted(tx, found));
    if (!user || user.status !== 'active' || version < user.token_version) return unauthorized('The session was ended by a change to the account; log in again', 'TOKEN_REVOKED');
    return this.#issueTokens(tx.db, { id: user.id, role: stored.role as Role }, user.name, stored.family_id, stored.expires_at, user.token_version);
  }

  /** ADMIN by ADMIN_EMAILS lasts while the e-mail is listed (an operator's grant does not depend on the list); the account as it is now. */
  async #demoteIfUnlisted(tx: Tx, user: repository.UserRow): Promise<repository.UserRow> {
    if (user.role !== 'ADMIN' || user.role_source !== 'signup' || this.#settings.adminEmails.has(user.email)) return user;
    if (await repository.demoteAdmin(tx.db, user.id, this.#clock.now())) await endTokens(tx, this.#tokens.revocations, user.id, this.#clock.now());
    return (await repository.findUserById(tx.db, user.id))!;
  }

  #hashOtp(email: string, code: string): string {
    return createHmac('sha256', this.#settings.otpKey).update(`${email}:${code}`).digest('hex');
  }

  async #issueTokens(db: WriteDb, user: AuthUser, name: string, familyId: string, familyExpiresAt: number, version: number): Promise<TokenResponse> {
    const jti = randomUUID();
    await repository.insertRefreshToken(db, {
      jti,
      family_id: familyId,
      user_id: user.id,
      role: user.role,
      expires_at: familyExpiresAt,
      created_at: this.#clock.now(),
      used_at: null,
      revoked_at: null,
    });
    const [accessToken, refreshToken] = await Promise.all([
      this.#tokens.signAccess(user, version),
      this.#tokens.signRefresh(user, jti, familyExpiresAt, version),
    ]);
    return {
      token: accessToken,
      accessToken,
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.#tokens.accessTtlSeconds,
      id: user.id,
      name,
      role: user.role,
    };
  }
}

const accountBlocked = () => forbidden('This account is blocked; contact support', 'ACCOUNT_BLOCKED');
