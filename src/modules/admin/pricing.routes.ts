import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.ts';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { PricingVersion } from '../pricing/pricing.schemas.ts';
import { PricingHistory, SavePricingBody } from './operations.schemas.ts';
import type { AdminPricing } from './pricing.service.ts';

/** Prices as versioned data (prefix /admin). */
export async function pricingRoutes(fastify: FastifyInstance, { pricing }: { pricing: AdminPricing }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];

  app.get('/pricing', {
    config: ADMIN_ONLY,
    schema: { tags, summary: 'The pricing version in force and every earlier one', response: { 200: PricingHistory, ...errorResponses(401, 403) } },
  }, async () => pricing.history());

  app.put('/pricing', {
    config: ADMIN_ONLY,
    schema: {
      tags,
      summary: 'A new pricing version (fare table per ride type, surge cap, cancellation rule): every instance quotes it within a second; it may cite the what-if replay it rests on',
      body: SavePricingBody,
      response: { 200: PricingVersion, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request) => pricing.update(actorOf(request), request.body));
}
