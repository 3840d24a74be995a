import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import type { Counters } from '../../platform/counters.ts';
import { badRequest, tooManyRequests } from '../../platform/errors.ts';
import type { SmsSender } from '../../platform/sms.ts';
import * as repository from './phones.repository.ts';
import type { AccountPhone, PhoneCodeSent } from './phones.schemas.ts';

export interface AccountPhonesDependencies {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  counters: Counters;
  sms: SmsSender;
  /** The service's JWT secret: the stored codes' HMAC key is derived from it, so a leaked table gives no code away. */
  secret: string;
  /** OTP_RESEND_COOLDOWN_SECONDS: the least time between two codes to one account. */
  resendCooldownSeconds: number;
}

export const PHONE_CODE_TTL_MS = 10 * 60_000;
export const PHONE_CODE_MAX_TRIES = 5;
/** Texts cost money and reach a stranger when the number is mistyped: a few per account per hour. */
export const PHONE_CODES_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

/** Each account's phone number, verified by a code sent to it (decisions.md "Safety"): only its owner ever sees it. */
export class AccountPhones {
  readonly #deps: AccountPhonesDependencies;
  readonly #codeKey: string;

  constructor(deps: AccountPhonesDependencies) {
    this.#deps = deps;
    this.#codeKey = createHmac('sha256', deps.secret).update('phone-code').digest('hex');
  }

  /** GET /auth/phone: the caller's own number, and one waiting for its code. */
  async of(user: AuthUser): Promise<AccountPhone> {
    const row = await repository.findPhone(this.#deps.db, user.id);
    const pending = row?.pending_phone != null && row.code_expires_at !== null && row.code_expires_at > this.#deps.clock.now();
    return {
      phone: row?.phone ?? null,
      verifiedAt: toIsoOrNull(row?.verified_at ?? null),
      pendingPhone: pending ? row.pending_phone : null,
      codeExpiresAt: pending ? toIso(row.code_expires_at!) : null,
    };
  }

  /** POST /auth/phone: a code to the number, by SMS (or to the log without SMS_URL). */
  async requestCode(user: AuthUser, phone: string): Promise<PhoneCodeSent> {
    const { clock, transactions, counters, sms } = this.#deps;
    const now = clock.now();
    const cooldownMs = this.#deps.resendCooldownSeconds * 1000;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = this.#hash(user.id, phone, code);
    const saved = await transactions.run((tx) =>
      repository.saveCodeUnlessCoolingDown(tx.db, { userId: user.id, phone, codeHash, expiresAt: now + PHONE_CODE_TTL_MS, sentAt: now }, now - cooldownMs),
    );
    if (!saved) {
      const previous = await repository.findPhone(this.#deps.db, user.id);
      throw tooManyRequests('A code was sent moments ago; wait before asking again', ((previous?.code_sent_at ?? now) + cooldownMs - now) / 1000, 'OTP_COOLDOWN');
    }
    const sent = await counters.increment(`phone-codes:${user.id}`, HOUR_MS);
    if (sent.count > PHONE_CODES_PER_HOUR) {
      await transactions.run((tx) => repository.dropCode(tx.db, user.id, codeHash));
      throw tooManyRequests(`At most ${PHONE_CODES_PER_HOUR} codes an hour; try again later`, sent.resetInMs / 1000);
    }
    let smsSent: boolean;
    try {
      smsSent = await sms.send(phone, `Your Ride Hailing code is ${code}. It expires in 10 minutes. Do not share it with anyone.`);
    } catch (error) {
      // Nobody received the code: drop it so the user can ask again at once.
      await transactions.run((tx) => repository.dropCode(tx.db, user.id, codeHash));
      throw error;
    }
    return {
      message: smsSent ? `A code was sent to ${phone}.` : 'SMS_URL is not set; the code was written to the server log.',
      smsSent,
      expiresAt: toIso(now + PHONE_CODE_TTL_MS),
    };
  }

  /** POST /auth/phone/verify: the number waiting for this code becomes the account's. */
  async verify(user: AuthUser, code: string): Promise<AccountPhone> {
    const { db, clock, transactions } = this.#deps;
    const now = clock.now();
    const row = await repository.findPhone(db, user.id);
    if (!row?.pending_phone || !row.code_hash || row.code_expires_at === null) throw badRequest('No code was asked for; ask for one first', 'OTP_INVALID');
    if (row.code_expires_at <= now) throw badRequest('The code has expired; ask for a new one', 'OTP_EXPIRED');
    if (!(await transactions.run((tx) => repository.spendCodeTry(tx.db, user.id, PHONE_CODE_MAX_TRIES, now)))) {
      throw badRequest('Too many wrong codes; ask for a new one', 'OTP_LOCKED');
    }
    const matches = timingSafeEqual(Buffer.from(row.code_hash, 'hex'), Buffer.from(this.#hash(user.id, row.pending_phone, code), 'hex'));
    if (!matches) {
      const left = PHONE_CODE_MAX_TRIES - row.code_attempts - 1;
      throw badRequest(left > 0 ? `The code is wrong; ${left} tries left` : 'The code is wrong; ask for a new one', 'OTP_INVALID');
    }
    if (!(await transactions.run((tx) => repository.confirmPending(tx.db, user.id, row.code_hash!, now)))) {
      throw badRequest('This code was already used; ask for a new one', 'OTP_INVALID');
    }
    return this.of(user);
  }

  /** The verified numbers of these accounts, for the telephony provider only: never put one in an answer. */
  verifiedNumbers(userIds: readonly number[]): Promise<Map<number, string>> {
    return repository.verifiedPhones(this.#deps.db, userIds);
  }

  /** An erased account's number goes with it (account.erasing). */
  erase(tx: Tx, userId: number): Promise<void> {
    return repository.erase(tx.db, userId);
  }

  #hash(userId: number, phone: string, code: string): string {
    return createHmac('sha256', this.#codeKey).update(`${userId}:${phone}:${code}`).digest('hex');
  }
}
