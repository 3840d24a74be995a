import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_ONLY } from '../../platform/auth/roles.ts';
import { errorResponses } from '../../platform/errors.ts';
import { point } from '../../platform/geo/request-point.ts';
import { InsightsQuery, ZoneInsights, ZonesResponse } from './insights.schemas.ts';
import type { InsightsService } from './insights.service.ts';

/** Insights (prefix /rides/insights), and the zone table operators see (/admin/zones). */
export async function insightsRoutes(fastify: FastifyInstance, { service }: { service: InsightsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/predictive', {
    schema: {
      tags: ['insights'],
      summary: 'Demand forecast, surge recommendation, pickup ETA guidance and driver supply plan; with lat and lon, for the zone around the point',
      querystring: InsightsQuery,
      response: { 200: ZoneInsights, ...errorResponses(400, 401) },
    },
  }, async (request) => service.current(point(request.query.lat, request.query.lon, '')));
}

export async function zonesRoutes(fastify: FastifyInstance, { service }: { service: InsightsService }) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().get('/zones', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Zones with riders waiting or drivers available: demand, supply and surge (the heat map)',
      response: { 200: ZonesResponse, ...errorResponses(401, 403) },
    },
  }, async () => service.zones());
}
