import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { Overview } from './operations.schemas.ts';
import type { AdminOverview } from './overview.service.ts';

/** The service's day at a glance (prefix /admin). */
export async function overviewRoutes(fastify: FastifyInstance, { overview }: { overview: AdminOverview }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/overview', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Today's rides by status, open requests, drivers online, available and busy, the last hour's waits, cancellations, fares and payments",
      response: { 200: Overview, ...errorResponses(401, 403) },
    },
  }, async () => overview.figures());
}
