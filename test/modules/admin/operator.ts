import assert from 'node:assert/strict';
import type { Config } from '../../../src/config.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';

// What the operator API's tests share: an app with an operator signed in, and the audit trail.

export interface OperatorApp {
  t: TestApp;
  admin: TestUser;
}

/** An app on a fresh database, with an ADMIN signed up through ADMIN_EMAILS; `before` runs before anyone signs up. */
export async function operatorApp(overrides: Partial<Config> = {}, before?: (t: TestApp) => Promise<void> | void): Promise<OperatorApp> {
  const email = uniqueEmail('operator');
  const t = await createTestApp({ adminEmails: new Set([email]), ...overrides });
  await before?.(t);
  return { t, admin: await signUp(t, { role: 'ADMIN', email }) };
}

export interface AuditItem {
  id: number;
  actorId: number;
  action: string;
  target: { type: string; id: string };
  before: any;
  after: any;
  requestId: string | null;
  clientRequestId: string | null;
  at: string;
}

/** The audit entries about one target, newest first. */
export async function auditOf(t: TestApp, admin: TestUser, type: string, id: number | string): Promise<AuditItem[]> {
  const reply = await call(t.app, 'GET', `/admin/audit?targetType=${type}&targetId=${id}`, { token: admin.token });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.items;
}
