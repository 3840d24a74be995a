import assert from 'node:assert/strict';
import { routes } from '../../src/contract/routes.ts';
import { PhoneStandIn } from '../../scripts/phone-stand-in.ts';
import { apiOf, asReply } from './api.ts';
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';

// Tests reach the SMS provider through the same stand-in `npm run dev:phone` runs, over real HTTP.

export const startPhoneProvider = (): Promise<PhoneStandIn> => new PhoneStandIn().start();

/** A different valid Indian mobile number on each call. */
let serial = 0;
export const newPhone = () => `+9198${String(process.pid % 1000).padStart(3, '0')}${String(++serial).padStart(5, '0')}`;

/** Gives the user a verified number through the real endpoints and the stand-in's text message. */
export async function verifiedPhone(t: TestApp, provider: PhoneStandIn, user: TestUser, phone = newPhone()): Promise<string> {
  const api = apiOf(t, user);
  const sent = asReply(await api.send(routes.safety.sendPhoneCode, { body: { phone } }));
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const code = provider.lastCodeTo(phone);
  assert.ok(code, `no code reached ${phone}`);
  const verified = asReply(await api.send(routes.safety.verifyPhone, { body: { code } }));
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return phone;
}
