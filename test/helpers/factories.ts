import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import type { Config } from '../../src/config.ts';
import type { Role } from '../../src/platform/auth/roles.ts';
import { routes } from '../../src/contract/routes.ts';
import { apiOf } from './api.ts';
import { createTestApp, type TestApp } from './app.ts';

export interface TestUser {
  id: number;
  name: string;
  email: string;
  password: string;
  role: Role;
  token: string;
  refreshToken: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

/** Signs a user up through the API (code read from the SMTP sink) and logs them in. */
export async function signUp(t: TestApp, fields: { role?: Role; name?: string; email?: string; password?: string } = {}): Promise<TestUser> {
  const role = fields.role ?? 'USER';
  const name = fields.name ?? `${role.toLowerCase()} ${randomBytes(2).toString('hex')}`;
  const email = fields.email ?? uniqueEmail(role.toLowerCase());
  const password = fields.password ?? 'correct horse battery';
  const mailsBefore = t.smtp.mails.length;
  const api = apiOf(t);
  const requested = await api.send(routes.auth.requestOtp, { body: { name, email } });
  assert.equal(requested.status, 200, JSON.stringify(requested.body));
  const otp = await t.smtp.otpFor(email, mailsBefore);
  const signup = await api.send(routes.auth.signup, { body: { name, email, password, otp, role } });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  const tokens = await api.call(routes.auth.login, { body: { email, password, role } });
  return { id: tokens.id, name, email, password, role, token: tokens.accessToken, refreshToken: tokens.refreshToken };
}

/** A test app with one operator: an e-mail of ADMIN_EMAILS, signed up as ADMIN. */
export async function createTestAppWithAdmin(overrides: Partial<Config> = {}): Promise<{ t: TestApp; admin: TestUser }> {
  const email = uniqueEmail('admin');
  const t = await createTestApp({ ...overrides, adminEmails: new Set([email]) });
  return { t, admin: await signUp(t, { role: 'ADMIN', email }) };
}
