import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { errorResponses } from '../../platform/errors.ts';
import type { AdminAccounts } from './accounts.service.ts';
import { AdminUser, AuditEntry, AuditQuery, CreateUserBody, PageOf } from './admin.schemas.ts';
import type { AuditTrail } from './audit.ts';

export interface AdminServices {
  accounts: AdminAccounts;
  audit: AuditTrail;
}

/** ADMIN only: every operator route passes this config (test/modules/admin checks all of /admin). */
export const ADMIN_ONLY = { roles: ['ADMIN'] as const };

/** The operator API (prefix /admin): accounts and the audit trail. */
export async function adminRoutes(fastify: FastifyInstance, services: AdminServices) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];
  const config = ADMIN_ONLY;

  app.post('/users', {
    config,
    schema: {
      tags,
      summary: 'Create an account (rider, driver or operator) without an e-mail code',
      body: CreateUserBody,
      response: { 201: AdminUser, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request, reply) => reply.code(201).send(await services.accounts.create(authUser(request), request.body, request.id)));

  app.get('/audit', {
    config,
    schema: {
      tags,
      summary: 'The audit trail of operators\' changes, newest first',
      querystring: AuditQuery,
      response: { 200: PageOf(AuditEntry), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => services.audit.list(request.query));
}
