import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { ComplianceQuery, ComplianceReport } from './compliance.schemas.ts';
import type { AdminCompliance } from './compliance.service.ts';

/** Rides checked against a compliance profile (prefix /admin). */
export async function complianceRoutes(fastify: FastifyInstance, { compliance }: { compliance: AdminCompliance }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/compliance', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Every ride booked in the period checked against a compliance profile under the pricing version it was priced with; the rides that break a rule',
      querystring: ComplianceQuery,
      response: { 200: ComplianceReport, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => compliance.report(request.query));
}
