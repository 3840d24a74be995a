import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { SupplyHistory, SupplyQuery } from './replay.schemas.ts';
import type { SupplySampler } from './supply-sampler.ts';

/** What replays are made of (prefix /admin). */
export async function replayRoutes(fastify: FastifyInstance, { supply }: { supply: SupplySampler }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/supply', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Driver supply as sampled for what-if replays: online and busy drivers every 30 seconds of the period',
      querystring: SupplyQuery,
      response: { 200: SupplyHistory, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => supply.history(request.query));
}
