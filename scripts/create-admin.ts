// npm run create-admin -- --email ops@example.com --password '…' [--name 'Operations']
// (or ADMIN_PASSWORD in the environment instead of --password, to keep it out of the process list)
//
// The first operator account of a fresh install, made directly in the configured database (the
// same environment as the service: DATABASE_URL, JWT_SECRET, …), through the auth service's
// account creation and with an audit entry whose actor is the system (actor id 0). Operators
// create every further account with POST /admin/users.

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Ajv } from 'ajv';
import { pino } from 'pino';
import { configOrExplain } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { AdminAccounts } from '../src/modules/admin/accounts.service.ts';
import { CreateUserBody } from '../src/modules/admin/admin.schemas.ts';
import { AuditTrail } from '../src/modules/admin/audit.ts';
import { AuthService, authSettings } from '../src/modules/auth/auth.service.ts';
import type { Actor } from '../src/platform/audit.ts';
import { TokenService } from '../src/platform/auth/tokens.ts';
import { Texts } from '../src/platform/i18n/texts.ts';
import { systemClock } from '../src/platform/clock.ts';
import { AppError } from '../src/platform/errors.ts';
import { DomainEventDispatcher } from '../src/platform/domain-events.ts';
import { createMailer } from '../src/platform/mail.ts';

/** Who the audit trail names for a change made from the command line on the server: no account, the system. */
const SYSTEM_ACTOR: Actor = { id: 0, role: 'ADMIN', requestId: `create-admin-${randomUUID()}`, clientRequestId: null };

const USAGE = "usage: npm run create-admin -- --email ops@example.com --password '<8 to 128 characters>' [--name 'Operations']";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ strict: true, options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string', default: 'Operator' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const body = { name: values.name, email: values.email, password: values.password ?? process.env.ADMIN_PASSWORD, role: 'ADMIN' };
  // The same rules as POST /admin/users.
  const validate = new Ajv({ allErrors: true }).compile<CreateUserBody>(CreateUserBody);
  if (!validate(body)) {
    console.error(`${(validate.errors ?? []).map((e) => `${e.instancePath.slice(1) || 'input'} ${e.message ?? 'is invalid'}`).join('; ')}\n${USAGE}`);
    return 2;
  }

  const config = configOrExplain();
  if (!config) return 1;
  const log = pino({ level: 'warn' });
  const database = connectDatabase(config.database);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, log);
  try {
    await database.migrate();
    // Built as app.ts builds it, so the account is made exactly as the service makes one.
    const auth = new AuthService({ ...database, texts: new Texts(config.serviceTimezone), events: new DomainEventDispatcher(log) }, new TokenService(config.jwtSecret, config.accessTokenTtlSeconds, systemClock), mailer, systemClock, authSettings(config));
    const accounts = new AdminAccounts({ transactions: database.transactions, auth, audit: new AuditTrail({ db: database.db, clock: systemClock }) });
    const user = await accounts.create(SYSTEM_ACTOR, body);
    console.log(`Created ADMIN account ${user.id} (${user.email}); log in with POST /auth/login.`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(`Not created: ${error.message} (${error.code})`);
    return 1;
  } finally {
    mailer.close();
    await database.destroy();
  }
}

process.exitCode = await main();
