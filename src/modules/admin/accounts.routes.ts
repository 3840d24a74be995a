import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authUser } from '../../platform/auth/authenticate.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import type { AdminAccounts } from './accounts.service.ts';
import { AdminUser, CreateUserBody } from './admin.schemas.ts';

/** Operators' work on accounts (prefix /admin). */
export async function accountsRoutes(fastify: FastifyInstance, { accounts }: { accounts: AdminAccounts }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.post('/users', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Create an account (rider, driver or operator) without an e-mail code',
      body: CreateUserBody,
      response: { 200: AdminUser, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request) => accounts.create(authUser(request), request.body, request.id));
}
