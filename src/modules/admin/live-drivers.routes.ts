import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { LiveDrivers, LiveDriversQuery } from './live-drivers.schemas.ts';
import type { LiveDriverMap } from './live-drivers.service.ts';

/** Where drivers are and what they are doing, for the operators' live map (prefix /admin). */
export async function liveDriversRoutes(fastify: FastifyInstance, { map }: { map: LiveDriverMap }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/drivers/live', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Online drivers around a point, nearest first, each busy, available or not cleared for offers',
      querystring: LiveDriversQuery,
      response: { 200: LiveDrivers, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => map.around(request.query));
}
