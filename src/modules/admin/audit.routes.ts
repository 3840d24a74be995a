import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { AuditEntry, AuditQuery, PageOf } from './admin.schemas.ts';
import type { AuditTrail } from './audit.ts';

/** The audit trail of the operator API (prefix /admin). */
export async function auditRoutes(fastify: FastifyInstance, { audit }: { audit: AuditTrail }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/audit', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'The audit trail of operators\' changes, newest first',
      querystring: AuditQuery,
      response: { 200: PageOf(AuditEntry), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => audit.list(request.query));
}
