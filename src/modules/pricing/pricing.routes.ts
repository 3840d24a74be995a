import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../platform/errors.ts';
import { PublicPricingVersion } from './pricing.schemas.ts';
import type { Pricing } from './pricing.service.ts';

const VersionParams = Type.Object({ version: Type.Integer({ minimum: 1, description: 'A pricing version, as a ride or a receipt names it' }) });

/** Pricing versions in public (prefix /pricing): anyone holding a ride's inputs can recompute its fare. */
export async function pricingRoutes(fastify: FastifyInstance, { pricing }: { pricing: Pick<Pricing, 'find'> }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/versions/:version', {
    config: { public: true },
    schema: {
      tags: ['pricing'],
      summary: 'A pricing version: the rules a ride priced with it was charged by',
      params: VersionParams,
      response: { 200: PublicPricingVersion, ...errorResponses(400, 404, 429) },
    },
  }, async (request) => pricing.find(request.params.version));
}
