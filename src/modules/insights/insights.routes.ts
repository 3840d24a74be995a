import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../platform/errors.ts';
import { PredictiveInsights } from './insights.schemas.ts';
import type { InsightsService } from './insights.service.ts';

export async function insightsRoutes(fastify: FastifyInstance, { service }: { service: InsightsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/predictive', {
    schema: {
      tags: ['insights'],
      summary: 'Demand forecast, surge recommendation, pickup ETA guidance and driver supply plan (refreshed every 30 s)',
      response: { 200: PredictiveInsights, ...errorResponses(401) },
    },
  }, async () => service.current());
}
