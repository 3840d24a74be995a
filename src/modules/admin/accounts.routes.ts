import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { Account } from '../auth/auth.schemas.ts';
import type { AccountDirectory, AdminAccounts } from './accounts.service.ts';
import { AccountQuery, AdminUser, BlockBody, CreateUserBody, DeletionRequest, PageOf, UserIdParams } from './admin.schemas.ts';

/** Operators' work on accounts (prefix /admin). */
export async function accountsRoutes(fastify: FastifyInstance, { accounts, directory }: { accounts: AdminAccounts; directory: AccountDirectory }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/users', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Accounts, newest first, by role, status and part of the name or e-mail',
      querystring: AccountQuery,
      response: { 200: PageOf(Account), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => directory.list(request.query));

  app.post('/users', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Create an account (rider, driver or operator) without an e-mail code',
      body: CreateUserBody,
      response: { 200: AdminUser, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request) => accounts.create(actorOf(request), request.body));

  app.post('/users/:userId/block', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Block an account: its logins are refused (403 ACCOUNT_BLOCKED) and its tokens end on every instance within a second',
      params: UserIdParams,
      body: BlockBody,
      response: { 200: Account, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => accounts.block(actorOf(request), request.params.userId, request.body.reason));

  app.post('/users/:userId/unblock', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Let a blocked account log in again',
      params: UserIdParams,
      response: { 200: Account, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => accounts.unblock(actorOf(request), request.params.userId));

  app.delete('/users/:userId', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Erase an account: personal data anonymised, tokens ended; rides, payments and the audit trail kept (docs/accounts.md)',
      params: UserIdParams,
      response: { 200: Account, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => accounts.erase(actorOf(request), request.params.userId));

  app.get('/deletion-requests', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'Accounts whose users asked to be deleted (settings deleteAccountRequested) and are not erased yet',
      querystring: PageQuery,
      response: { 200: PageOf(DeletionRequest), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => directory.deletionRequests(request.query));
}
